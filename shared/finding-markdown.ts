/**
 * One finding as Markdown for a ticket or a chat: title, severity, rule, node, summary, the
 * evidence in code blocks, and the fix command for the same target. Pure and browser-safe.
 */
import type { Evidence, Finding } from './model/finding';
import type { Report } from './model/report';
import { fixCommand } from './report-html';

/** A fenced block that no line of the node's text can close early. */
function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

/** Inline code that survives backquotes in the text. */
function code(text: string): string {
  const f = text.includes('`') ? '``' : '`';
  return `${f}${f === '``' ? ' ' : ''}${text}${f === '``' ? ' ' : ''}${f}`;
}

function evidence(e: Evidence): string {
  switch (e.kind) {
    case 'file':
      return `${code(e.path)}${e.note ? ` (${e.note})` : ''}:\n${fence(
        e.lines
          .map((l) => `${l.highlight ? '>' : ' '} ${String(l.line).padStart(4)}  ${l.text}`)
          .join('\n'),
      )}`;
    case 'conf-dir':
      return `${code(e.path)} as ${e.runtime} reads it, in load order:\n${e.entries
        .map(
          (x, i) =>
            `${i + 1}. ${code(x.name)} — ${x.role}${x.network ? `, network "${x.network}"` : ''}`,
        )
        .join('\n')}`;
    case 'log':
      return `${code(e.path)} line ${e.line}${e.tailBytes ? ` of the last ${Math.round(e.tailBytes / 1048576)} MiB` : ''}${e.note ? ` (${e.note})` : ''}:\n${fence(e.text)}`;
    case 'cri':
      return `CRI ${code(e.endpoint)} ${e.field}: ${code(e.value)}`;
    case 'hns':
      return `HNS ${e.objectType} ${code(e.id)}${e.name ? ` "${e.name}"` : ''}: ${e.detail}`;
    case 'process':
      return `process ${e.name}${e.pid !== undefined ? ` (pid ${e.pid})` : ''}: ${code(e.args.join(' '))}`;
    case 'registry':
      return `registry ${code(e.key)} ${e.value}${e.note ? ` (${e.note})` : ''}: ${code(e.data)}`;
    case 'path':
      return `${code(e.path)}: ${e.state}${e.note ? ` (${e.note})` : ''}`;
    case 'text':
      return e.text;
  }
}

export function findingMarkdown(
  f: Finding,
  report: Pick<Report, 'target' | 'node'>,
  label: string,
): string {
  const node = report.target ? `${report.target.target} (${report.target.transport})` : label;
  const out = [
    `### ${f.severity.toUpperCase()}: ${f.title}`,
    '',
    `- Rule: ${code(f.rule)}`,
    `- Node: ${node}${report.node.hostname ? `, ${report.node.hostname}` : ''}`,
    ...(f.runtime ? [`- Runtime: ${f.runtime}`] : []),
    '',
    f.summary,
  ];
  if (f.evidence.length)
    out.push('', '**Evidence**', '', ...f.evidence.map((e) => `${evidence(e)}\n`));
  if (f.repairs.length)
    out.push(
      '',
      '**Repair**',
      '',
      ...f.repairs.map((r) => `- ${r.title}: ${code(fixCommand(r.id, report))}`),
    );
  if (f.guidance) out.push('', '**What to do**', '', f.guidance);
  return out.join('\n').replace(/\n{3,}/g, '\n\n') + '\n';
}
