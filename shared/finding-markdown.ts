/**
 * One finding as Markdown for a ticket or a chat: title, severity, rule, node, summary, the
 * evidence in code blocks, and the fix command for the same target. Pure and browser-safe.
 *
 * Every string that came from the node (titles and summaries quote file and network names,
 * hostnames, evidence) goes through escape.ts: prose through `mdText`, names and commands through
 * `mdCode`, quoted lines through `mdFence`. So a node cannot forge a section, a link, an image
 * or HTML in the ticket. The evidence itself was redacted by the engine (report.redaction).
 */
import type { Evidence, Finding } from './model/finding';
import type { Report } from './model/report';
import { mdCode as code, mdFence as fence, mdText as md, visible } from './escape';
import { fixCommand } from './report-html';

function evidence(e: Evidence): string {
  switch (e.kind) {
    case 'file':
      return `${code(e.path)}${e.note ? ` (${md(e.note)})` : ''}:\n${fence(
        e.lines
          // A line break inside one quoted line is shown, not made a line of the listing.
          .map(
            (l) => `${l.highlight ? '>' : ' '} ${String(l.line).padStart(4)}  ${visible(l.text)}`,
          )
          .join('\n'),
      )}`;
    case 'conf-dir':
      return `${code(e.path)} as ${md(e.runtime)} reads it, in load order:\n${e.entries
        .map(
          (x, i) =>
            `${i + 1}. ${code(x.name)} — ${md(x.role)}${x.network ? `, network ${code(x.network)}` : ''}`,
        )
        .join('\n')}`;
    case 'log':
      return `${code(e.path)} line ${e.line}${e.tailBytes ? ` of the last ${Math.round(e.tailBytes / 1048576)} MiB` : ''}${e.note ? ` (${md(e.note)})` : ''}:\n${fence(visible(e.text))}`;
    case 'cri':
      return `CRI ${code(e.endpoint)} ${md(e.field)}: ${code(e.value)}`;
    case 'hns':
      return `HNS ${md(e.objectType)} ${code(e.id)}${e.name ? ` ${code(e.name)}` : ''}: ${md(e.detail)}`;
    case 'process':
      return `process ${code(e.name)}${e.pid !== undefined ? ` (pid ${e.pid})` : ''}: ${code(e.args.join(' '))}`;
    case 'registry':
      return `registry ${code(e.key)} ${code(e.value)}${e.note ? ` (${md(e.note)})` : ''}: ${code(e.data)}`;
    case 'path':
      return `${code(e.path)}: ${md(e.state)}${e.note ? ` (${md(e.note)})` : ''}`;
    case 'text':
      return md(e.text);
  }
}

export function findingMarkdown(
  f: Finding,
  report: Pick<Report, 'target' | 'node' | 'redaction'>,
  label: string,
): string {
  const node = report.target
    ? `${code(report.target.target)} (${md(report.target.transport)})`
    : md(label);
  const out = [
    `### ${f.severity.toUpperCase()}: ${md(f.title)}`,
    '',
    `- Rule: ${code(f.rule)}`,
    `- Node: ${node}${report.node.hostname ? `, ${code(report.node.hostname)}` : ''}`,
    ...(f.runtime ? [`- Runtime: ${md(f.runtime)}`] : []),
    ...(report.redaction?.evidence === 'unredacted'
      ? ['- Evidence: **not redacted**: quoted verbatim, it may hold secrets']
      : []),
    '',
    md(f.summary),
  ];
  if (f.evidence.length)
    out.push('', '**Evidence**', '', ...f.evidence.map((e) => `${evidence(e)}\n`));
  if (f.repairs.length)
    out.push(
      '',
      '**Repair**',
      '',
      ...f.repairs.map((r) => `- ${md(r.title)}: ${code(fixCommand(r.id, report))}`),
    );
  if (f.guidance) out.push('', '**What to do**', '', md(f.guidance));
  return out.join('\n').replace(/\n{3,}/g, '\n\n') + '\n';
}
