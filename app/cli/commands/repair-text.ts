/** Human output of fix / undo / history (cli.md: text is for people, JSON for scripts). */
import type {
  ApplyResult,
  JournalEntry,
  RepairPreview,
  UndoChange,
} from '../../../shared/model/repair';
import type { RecoveryReport } from '../../../main/repairs';
import type { Style } from '../format-text';
import { visible, visibleDeep, visibleLines } from '../visible';
import { laneLine } from '../../../shared/load-order-words';

// Every string below may come from the node (file names, config values, service names, journal
// fields a root-run history reads): each passes `visible` before it reaches the terminal, so the
// preview an admin approves shows exactly what will happen and no name can forge a line.

export function formatPreview(preview: RepairPreview, s: Style, rerunCommand: string): string {
  // A diff's line breaks are its own; every line of it is escaped (headers escape their path).
  const p = visibleDeep({ ...preview, diffs: [] });
  const diffs = preview.diffs.map((d) => ({
    path: visible(d.path),
    unified: visibleLines(d.unified),
  }));
  const rerun = visible(rerunCommand);
  const out: string[] = [];
  out.push(s.bold(`Repair ${p.repairId}`), `  ${p.title}`, '');
  out.push(
    `  Risk: ${p.risk}    Needs root: ${p.needsElevation ? 'yes' : 'no'}    Restarts: ${p.services.length ? p.services.join(', ') : 'nothing'}`,
    '',
  );
  out.push(s.bold('Steps'));
  p.description.forEach((d, i) => out.push(`  ${i + 1}. ${d}`));
  out.push('', s.bold('What running pods notice'), `  ${p.podImpact}`);
  if (p.notes.length) out.push('', s.bold('Notes'), ...p.notes.map((n) => `  - ${n}`));
  for (const lo of p.loadOrder ?? []) {
    out.push(
      '',
      s.bold(`Load order of ${lo.label} (${lo.after?.confDir ?? lo.before?.confDir ?? ''})`),
    );
    if (lo.before) out.push(`  now:               ${laneLine(lo.before, lo.label)}`);
    if (lo.after) out.push(`  after this repair: ${laneLine(lo.after, lo.label)}`);
  }
  for (const d of diffs) out.push('', s.bold(`Diff of ${d.path}`), d.unified.trimEnd());
  out.push(
    '',
    s.dim(`Preview token: ${p.previewToken}`),
    `Nothing was changed. To apply: ${rerun}`,
  );
  return out.join('\n');
}

function newErrors(v: NonNullable<ApplyResult['verification']>): string {
  if (v.newFindings.length === 0) return '';
  const titles = v.newFindingTitles?.map((f) => `"${f.title}"`) ?? v.newFindings;
  return `; new errors: ${titles.join(', ')}`;
}

/** `undo`: the command that undoes this entry (with the run's --root/--state-dir, quoted). */
export function formatApply(result: ApplyResult, s: Style, undoCommand = ''): string {
  const r = visibleDeep(result);
  const undo = visible(undoCommand);
  const out: string[] = [];
  const head = r.status === 'applied' ? 'applied and verified' : r.status;
  out.push(
    s.bold(`${r.repair}: ${head}`) + (r.entry ? `  (journal entry ${r.entry})` : ''),
    `  ${r.reason}`,
  );
  const v = r.verification;
  if (v) {
    out.push(
      `  verification after ${v.attempts} scan(s): finding ${v.resolved ? 'gone' : 'still there'}${newErrors(v)}`,
    );
    for (const c of v.cri)
      out.push(`  CRI ${c.endpoint}: ${c.ok ? 'answers' : 'does not answer'} (${c.detail})`);
    for (const n of v.notes) out.push(`  note: ${n}`);
  }
  if (r.elevation) out.push('  steps that need root:', ...r.elevation.steps.map((x) => `    ${x}`));
  if (r.status === 'applied' && r.entry)
    out.push(`  undo with: ${undo || `cni-doctor undo ${r.entry} --yes`}`);
  return out.join('\n');
}

export function formatHistory(journal: readonly JournalEntry[], s: Style): string {
  if (journal.length === 0) return 'No repairs in the journal.';
  const out: string[] = [];
  for (const e of visibleDeep(journal)) {
    out.push(`${s.bold(e.id)}  ${e.status.padEnd(15)} ${e.repair}`);
    out.push(
      `    ${e.title}${e.appliedAt ? `  (applied ${e.appliedAt})` : ''}${e.root !== '/' ? `  [root ${e.root}]` : ''}`,
    );
    for (const f of e.files) out.push(`    ${f}`);
    if (e.reason && e.status !== 'verified') out.push(`    why: ${e.reason}`);
  }
  return out.join('\n');
}

export function formatUndoPreview(
  entry: JournalEntry,
  reasons: string[],
  rerunCommand: string,
  changes: UndoChange[] = [],
): string {
  const e = visibleDeep(entry);
  const changed = visibleDeep(reasons);
  const rerun = visible(rerunCommand);
  const out = [
    `Undo ${e.id} (${e.repair}, ${e.status})`,
    `  ${e.title}`,
    '  Files put back from the backups taken before the repair:',
  ];
  for (const f of e.files) out.push(`    ${f}`);
  // What each file holds now against what undo leaves (a diff's line breaks are its own).
  for (const c of changes) {
    const path = visible(c.path);
    out.push(
      c.action === 'rename-back'
        ? `  ${visible(c.from ?? '')} is renamed back to ${path}${c.diff ? '' : ' (content unchanged)'}`
        : c.action === 'remove'
          ? `  ${path} is removed (the repair created it)`
          : `  ${path} gets its content from before the repair back:`,
    );
    if (c.diff)
      out.push(
        ...visibleLines(c.diff)
          .replace(/\n$/, '')
          .split('\n')
          .map((l) => `    ${l}`),
      );
  }
  if (e.services.length) out.push(`  Then restarts: ${e.services.join(', ')}`);
  if (changed.length) out.push('  Refused now, because:', ...changed.map((c) => `    ${c}`));
  else out.push(`Nothing was changed. To undo: ${rerun}`);
  return out.join('\n');
}

export function recoveryLines(r: RecoveryReport): string[] {
  const out = r.recovered.map(
    (x) =>
      `cni-doctor: recovered unfinished repair ${x.entry} (${x.repair}, was ${x.from}): ${x.detail}`,
  );
  for (const n of r.notes ?? []) out.push(`cni-doctor: note: ${n}`);
  for (const k of r.skipped ?? []) out.push(`cni-doctor: warning: ${k}`);
  if (r.problem) out.push(`cni-doctor: warning: ${r.problem}`);
  return out.map(visible);
}
