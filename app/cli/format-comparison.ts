/** `cni-doctor compare` as text: what was added, gone and changed, and the load order then and now. */
import type { FindingBrief, FindingChange, ScanComparison } from '../../shared/model/compare';
import type { Style } from './format-text';
import { visibleDeep } from './visible';
import { laneLine } from '../../shared/load-order-words';

const SEV = { error: 'ERROR  ', warning: 'WARNING', info: 'INFO   ' } as const;

function side(name: string, s: ScanComparison['before']): string {
  return `${name} ${s.label}${s.hostname ? ` (${s.hostname})` : ''}${s.scannedAt ? `, scanned ${s.scannedAt}` : ''}`;
}

function line(f: FindingBrief, st: Style): string {
  return `  ${st.sev(f.severity, SEV[f.severity])} ${f.title}  ${st.dim(`[${f.id}]`)}`;
}

export function formatComparison(comparison: ScanComparison, st: Style): string {
  // Titles, ids and file names come from the node: shown, never interpreted by the terminal.
  const c = visibleDeep(comparison);
  const out: string[] = [side('before:', c.before), side('after: ', c.after), ''];
  // The load order first: it is what a person compares first (which config is in use).
  for (const lo of c.loadOrder) {
    const dirs = [...new Set([lo.before?.confDir, lo.after?.confDir].filter(Boolean))].join(' → ');
    out.push(st.bold(`Load order of ${lo.label} (${dirs})${lo.changed ? '' : ': the same'}`));
    if (lo.inUseBefore !== lo.inUseAfter)
      out.push(`  in use: ${lo.inUseBefore ?? 'none'} → ${lo.inUseAfter ?? 'none'}`);
    for (const n of [
      lo.before?.note && `then: ${lo.before.note}`,
      lo.after?.note && `now: ${lo.after.note}`,
    ])
      if (n) out.push(`  ${n}`);
    if (lo.before && !lo.before.note) out.push(`  then: ${laneLine(lo.before, lo.label)}`);
    if (lo.after && !lo.after.note) out.push(`  now:  ${laneLine(lo.after, lo.label)}`);
    const w = Math.max(0, ...lo.rows.map((r) => r.name.length)) + 2;
    for (const r of lo.rows) {
      const at = (p: typeof r.before): string => (p ? `${p.position}. ${p.role}` : '—');
      out.push(
        `  ${r.name.padEnd(w)}then ${at(r.before).padEnd(18)} now ${at(r.after).padEnd(18)}${r.change === 'same' ? '' : r.change}`,
      );
    }
  }
  if (c.loadOrder.length > 0) out.push('');
  const section = (title: string, n: number): void => {
    out.push(st.bold(`${title} (${n})`));
  };
  section('Added — only in the newer scan', c.added.length);
  for (const f of c.added) out.push(line(f, st));
  section('Gone — only in the older scan', c.gone.length);
  for (const f of c.gone) out.push(line(f, st));
  section('Changed', c.changed.length);
  for (const ch of c.changed) {
    out.push(line(ch.after, st));
    for (const x of ch.changes) out.push(...changeLines(x));
  }
  out.push(st.dim(`${c.unchanged} finding(s) the same in both`));
  if (c.checks.length > 0) {
    out.push('', st.bold(`Checks whose result changed (${c.checks.length})`));
    const w = Math.max(...c.checks.map((x) => x.rule.length)) + 2;
    for (const x of c.checks) out.push(`  ${x.rule.padEnd(w)}${x.before} → ${x.after}`);
  }
  return out.join('\n');
}

function changeLines(x: FindingChange): string[] {
  switch (x.field) {
    case 'severity':
      return [`      severity: ${x.before} → ${x.after}`];
    case 'title':
    case 'summary':
      return [`      ${x.field} was: ${x.before}`];
    case 'repairs':
      return [
        `      repairs: ${[...x.added.map((r) => `+${r}`), ...x.removed.map((r) => `-${r}`)].join(' ')}`,
      ];
    case 'evidence': {
      const more = (n: number, shown: number, sign: string) =>
        n > shown ? [`        ${sign} … ${n - shown} more`] : [];
      return [
        `      evidence: ${x.addedCount} new, ${x.removedCount} no longer`,
        ...x.added.map((a) => `        + ${a}`),
        ...more(x.addedCount, x.added.length, '+'),
        ...x.removed.map((r) => `        - ${r}`),
        ...more(x.removedCount, x.removed.length, '-'),
      ];
    }
  }
}
