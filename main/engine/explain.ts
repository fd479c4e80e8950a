/**
 * Explains a pasted error (issue 22, point 6): every line of the text is matched against the log
 * signatures, and each match is tied to the finding of the report that explains it (the rule the
 * signature is evidence for, or its log.<topic> check) — or said plainly to be unexplained.
 * Pure: the same function serves `cni-doctor explain` and the UI's "paste your error" field.
 */
import type { ExplainMatch, ExplainResult } from '../../shared/api-explain';
import type { Report } from '../../shared/model/report';
import { allSignatures } from '../logs/catalog';
import type { LogSignature } from '../logs/types';

const MAX_LINE = 2000;
const compiled = new Map<string, RegExp>();

function regexOf(sig: LogSignature): RegExp {
  let r = compiled.get(sig.id);
  if (!r) compiled.set(sig.id, (r = new RegExp(sig.pattern)));
  return r;
}

/**
 * kubectl and JSON logs quote the runtime's message: `\"` for `"`, `\\` for `\`. The signatures
 * are written against the runtime's own text, so a line is tried as pasted and unescaped.
 */
function variants(line: string): string[] {
  const unescaped = line.replace(/\\"/g, '"').replace(/\\\\/g, '\\');
  return unescaped === line ? [line] : [line, unescaped];
}

/** The check a topic signature becomes (main/rules/logs/topic-rules.ts). */
const topicRuleId = (topic: string): string => (topic.startsWith('log.') ? topic : `log.${topic}`);

export function explainText(text: string, report: Report): ExplainResult {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  const os = report.node.os;
  // The node's own signatures first: a line both catalogs know is read as this node's.
  const sigs = [...allSignatures].sort(
    (a, b) => Number(b.platform === os) - Number(a.platform === os),
  );
  const top = report.findings.find((f) => f.id === report.summary?.topFindingId);
  const matches: ExplainMatch[] = [];
  for (const raw of lines) {
    const line = raw.slice(0, MAX_LINE);
    const seen = new Set<string>();
    // Another platform's signatures only when none of this node's knows the line.
    const mine = sigs.filter((s) => s.platform === os || s.platform === 'any');
    const known = mine.some((sig) => variants(line).some((v) => regexOf(sig).test(v)));
    for (const sig of known ? mine : sigs) {
      const rule = sig.attachesTo ?? (sig.topic && topicRuleId(sig.topic));
      if (!rule || seen.has(rule) || !variants(line).some((v) => regexOf(sig).test(v))) continue;
      seen.add(rule);
      const finding = report.findings.find((f) => f.rule === rule);
      const base = {
        line,
        signature: { id: sig.id, title: sig.title, explanation: sig.explanation, fix: sig.fix },
        rule,
      };
      if (finding)
        matches.push({
          ...base,
          verdict: 'explained',
          findingId: finding.id,
          findingTitle: finding.title,
        });
      else if (sig.generic)
        matches.push({
          ...base,
          verdict: 'generic',
          ...(top && { findingId: top.id, findingTitle: top.title }),
        });
      else matches.push({ ...base, verdict: 'unexplained' });
    }
  }
  // A specific explanation of a line comes before the generic one.
  const order = { explained: 0, unexplained: 1, generic: 2 } as const;
  matches.sort((a, b) => order[a.verdict] - order[b.verdict]);
  return { matches, lines: lines.length };
}
