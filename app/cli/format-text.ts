/** The human report: findings grouped by severity, with evidence and repair ids (cli.md). */
import type { Evidence, Finding, Severity } from '../../shared/model/finding';
import type { Report } from '../../shared/model/report';
import { logLineLocation } from '../../shared/log-location';
import { visible, visibleDeep } from './visible';
import { accessBanner } from '../../shared/access-banner';
import { wrapText as wrap } from './wrap';

export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  sev(sev: Severity, s: string): string;
}

export const plain: Style = { bold: (s) => s, dim: (s) => s, sev: (_v, s) => s };
export const ansi: Style = {
  bold: (s) => `\x1b[1m${s}\x1b[22m`,
  dim: (s) => `\x1b[2m${s}\x1b[22m`,
  sev: (v, s) => `\x1b[${v === 'error' ? 31 : v === 'warning' ? 33 : 36}m${s}\x1b[39m`,
};

function evidenceLines(e: Evidence): string[] {
  switch (e.kind) {
    case 'file':
      return [
        `${e.path}${e.note ? `  (${e.note})` : ''}`,
        ...e.lines.map(
          (l) => `  ${l.highlight ? '>' : ' '}${String(l.line).padStart(5)} | ${l.text}`,
        ),
      ];
    case 'conf-dir':
      return [
        `${e.path}  (${e.note ?? `load order of ${e.runtime}`})`,
        ...e.entries.map(
          (x, i) =>
            `  ${String(i + 1).padStart(2)}. ${x.name.padEnd(34)} ${x.role}${x.network ? `  network "${x.network}"` : ''}${x.note ? `  — ${x.note}` : ''}`,
        ),
      ];
    case 'cri':
      return [`CRI ${e.endpoint}  ${e.field}: ${e.value}`];
    case 'hns':
      return [`HNS ${e.objectType} ${e.name ?? ''} ${e.id}: ${e.detail}`];
    case 'log':
      return [`${logLineLocation(e)}: ${e.text}`, ...(e.note ? [`  (${e.note})`] : [])];
    case 'process':
      return [`process ${e.name}${e.pid ? ` (pid ${e.pid})` : ''}: ${e.args.join(' ')}`];
    case 'registry':
      return [`${e.key}  ${e.value} = ${e.data}`, ...(e.note ? [`  (${e.note})`] : [])];
    case 'path':
      return [`${e.path}: ${e.state}${e.note ? ` (${e.note})` : ''}`];
    case 'text':
      return [e.text];
  }
}

export function formatFinding(finding: Finding, st: Style, width = 100): string[] {
  return findingLines(visibleDeep(finding), st, width);
}

/** formatFinding of a finding already through visibleDeep (a report's, escaped as a whole). */
function findingLines(f: Finding, st: Style, width: number): string[] {
  const body = Math.max(32, width - 8);
  const [first = '', ...rest] = wrap(f.title, body);
  const out = [
    `${st.sev(f.severity, f.severity.toUpperCase().padEnd(7))} ${st.bold(first)}`,
    ...rest.map((l) => `        ${st.bold(l)}`),
    `        ${st.dim(`[${f.rule}]`)}`,
  ];
  out.push(...wrap(f.summary, body).map((l) => `        ${l}`));
  for (const e of f.evidence)
    out.push(...evidenceLines(e).map((l) => `        ${st.dim('│')} ${l}`));
  if (f.relatedFindings?.length) out.push(`        explained by: ${f.relatedFindings.join(', ')}`);
  for (const r of f.repairs) {
    const cmd = `fix: cni-doctor fix ${r.id}`;
    const why = `# ${r.title}${r.needsElevation ? ' (needs root/Administrator)' : ''}`;
    // The command stays whole (it is copied); its comment goes below when the line is too long.
    if (cmd.length + why.length + 3 <= body) out.push(`        ${cmd}   ${st.dim(why)}`);
    else out.push(`        ${cmd}`, ...wrap(why, body - 2).map((l) => `          ${st.dim(l)}`));
  }
  if (f.guidance) out.push(...wrap(`what to do: ${f.guidance}`, body).map((l) => `        ${l}`));
  return out;
}

export function formatReport(report: Report, st: Style, width = 100): string {
  const r = visibleDeep(report);
  const out: string[] = [];
  const s = r.summary;
  out.push(st.bold(`cni-doctor — ${r.node.hostname ?? 'node'} (${r.node.os}, ${r.node.source})`));
  // Every report names where its facts came from (remote targets: which transport, which CRI route).
  if (r.target)
    out.push(
      visible(
        `target ${r.target.target} via ${r.target.transport}${r.target.cri !== undefined ? `; CRI: ${r.target.cri}` : ''}`,
      ),
    );
  if (r.redaction?.evidence === 'unredacted')
    out.push(
      st.sev(
        'warning',
        '  evidence  NOT redacted (--unredacted): it may hold tokens and passwords',
      ),
    );
  if (s) {
    for (const rt of s.runtimes) {
      out.push(
        `  runtime   ${rt.name}${rt.version ? ` ${rt.version}` : ''} at ${rt.endpoint ?? '?'}`,
      );
      if (rt.cniLoader) out.push(`  CNI load  ${rt.cniLoader.note}`);
    }
    if (s.kubelet)
      out.push(
        `  kubelet   ${s.kubelet.version ?? 'version unknown'} → ${s.kubelet.endpoint ?? 'endpoint unknown'}`,
      );
    if (s.cniInUse)
      out.push(
        `  CNI       ${s.cniInUse.file ?? 'none'} in ${s.cniInUse.confDir}${s.cniInUse.plugins.length ? ` (${s.cniInUse.plugins.join(', ')})` : ''}`,
      );
    for (const c of s.criConditions ?? [])
      out.push(
        `  CRI       ${c.endpoint}: RuntimeReady=${c.runtimeReady ?? '?'} NetworkReady=${c.networkReady ?? '?'}${c.message ? ` — ${c.message}` : ''}`,
      );
  }
  out.push('');
  // Could not look is never a cause: say so before anything that reads like a verdict.
  if (r.access) {
    const b = accessBanner(r.access);
    out.push(st.sev('warning', `! ${b.headline}`), `  ${b.advice}`);
    if (b.command) out.push(`    ${st.bold(b.command)}`);
    out.push('');
  }
  // The engine's one ranking (summary.topFindingId): the same cause the UI and JSON name first.
  const top = r.findings.find((f) => f.id === s?.topFindingId);
  if (top) out.push(st.bold(`Most likely cause: ${top.title}  [${top.id}]`), '');
  if (r.findings.length === 0)
    out.push(
      r.access
        ? `No findings among the checks that could look; ${r.access.denied.length} could not (see above).`
        : 'No findings: nothing on this node explains a stuck pod sandbox.',
    );
  for (const sev of ['error', 'warning', 'info'] as const) {
    const group = r.findings.filter((f) => f.severity === sev);
    if (group.length === 0) continue;
    out.push(st.bold(`${group.length} ${sev}${group.length > 1 ? 's' : ''}`));
    for (const f of group) out.push(...findingLines(f, st, width), '');
  }
  const unknown = r.checks.filter((c) => c.status === 'unknown');
  const counts = ['pass', 'fail', 'unknown', 'not-applicable']
    .map((st2) => `${r.checks.filter((c) => c.status === st2).length} ${st2}`)
    .join(', ');
  out.push(st.dim(`checks: ${counts}`));
  // Group by reason: twenty log checks that all lack a readable log are one line, not twenty.
  const byReason = new Map<string, string[]>();
  for (const c of unknown)
    byReason.set(c.reason ?? '', [...(byReason.get(c.reason ?? '') ?? []), c.rule]);
  for (const [reason, rules] of byReason) {
    const names =
      rules.length > 3
        ? `${rules.slice(0, 2).join(', ')} and ${rules.length - 2} more`
        : rules.join(', ');
    out.push(st.dim(`  could not determine ${names}: ${reason}`));
  }
  return out.join('\n');
}
