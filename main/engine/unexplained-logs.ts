/**
 * Log lines a signature matched that no finding quotes (issue 22, point 4): the literal error
 * strings users trust, shown on the Overview even when no rule claims them, so a matched
 * "…\\.\pipe\cnisock: The system cannot find the file specified" is never hidden in a viewer.
 */
import type { Finding } from '../../shared/model/finding';
import type { UnexplainedLogLines } from '../../shared/model/report';
import type { LogMatchFact } from '../../shared/model/snapshot';
import { signatureById } from '../logs/catalog';

const MAX_LINES = 20;

export function unexplainedLogLines(
  matches: readonly LogMatchFact[],
  findings: readonly Finding[],
): UnexplainedLogLines | undefined {
  const quoted = new Set<string>();
  for (const f of findings)
    for (const e of f.evidence) if (e.kind === 'log') quoted.add(`${e.path}\u0000${e.line}`);
  const seen = new Set<string>();
  const lines = matches.filter((m) => {
    const k = `${m.path}\u0000${m.line}`;
    if (quoted.has(k) || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  if (lines.length === 0) return undefined;
  return {
    total: lines.length,
    // The newest lines: a log's tail is where the current failure is.
    lines: lines.slice(-MAX_LINES).map((m) => ({
      path: m.path,
      line: m.line,
      text: m.text,
      signature: m.signatureId,
      title: signatureById(m.signatureId)?.title ?? m.signatureId,
      ...(m.tailBytes !== undefined && { tailBytes: m.tailBytes }),
    })),
  };
}
