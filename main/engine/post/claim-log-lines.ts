/**
 * One log line, one finding (rules.md "Logs"): a line that a specific finding explains is that
 * finding's evidence and nobody else's. Generic log findings ("a sandbox's network setup
 * failed", "a CNI reload failed") keep only the lines no specific finding explains and say so;
 * when every line is explained elsewhere, the generic finding is not reported at all and its
 * check passes with the reason.
 */
import type { Evidence, Finding } from '../../../shared/model/finding';
import type { LogMatchFact } from '../../../shared/model/snapshot';
import { GENERIC_LOG_TOPICS, signatureById } from '../../logs/catalog';
import { causeRank } from './rank';
import type { Assembly, PostStep } from './types';

type LogEvidence = Extract<Evidence, { kind: 'log' }>;

/** A finding quotes at most this many claimed lines it did not already quote. */
const MAX_ADOPTED = 10;

const lineKey = (path: string, line: number): string => `${path}\u0000${line}`;
const isLog = (e: Evidence): e is LogEvidence => e.kind === 'log';
const isGeneric = (f: Finding): boolean => GENERIC_LOG_TOPICS.has(f.rule);

/** The rules (attachesTo or topic) whose signatures matched each line. */
function explainersByLine(matches: readonly LogMatchFact[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const m of matches) {
    const sig = signatureById(m.signatureId);
    const rule = sig?.attachesTo ?? sig?.topic;
    if (!rule) continue;
    const k = lineKey(m.path, m.line);
    let set = out.get(k);
    if (!set) out.set(k, (set = new Set()));
    set.add(rule);
  }
  return out;
}

/** The discriminator a finding's id carries (a file name, an endpoint), if the line names it. */
function namesSubject(f: Finding, text: string): boolean {
  const hash = f.id.indexOf('#');
  if (hash === -1) return false;
  const key = f.id.slice(hash + 1);
  const subject = key.slice(key.lastIndexOf(':') + 1) || key;
  return subject.length >= 3 && text.includes(subject);
}

/** Among the findings that explain a line, the one it belongs to. */
function pickOwner(candidates: readonly Finding[], text: string): Finding | undefined {
  return [...candidates].sort(
    (a, b) =>
      Number(isGeneric(a)) - Number(isGeneric(b)) ||
      Number(namesSubject(b, text)) - Number(namesSubject(a, text)) ||
      causeRank(a) - causeRank(b),
  )[0];
}

export function claimLogLines(a: Assembly, matches: readonly LogMatchFact[]): Assembly {
  const explainers = explainersByLine(matches);
  const byRule = new Map<string, Finding[]>();
  for (const f of a.findings) byRule.set(f.rule, [...(byRule.get(f.rule) ?? []), f]);

  // Every line any finding quotes, with the findings that quote or explain it.
  const lines = new Map<string, { ev: LogEvidence; candidates: Set<Finding> }>();
  for (const f of a.findings)
    for (const ev of f.evidence.filter(isLog)) {
      const k = lineKey(ev.path, ev.line);
      let entry = lines.get(k);
      if (!entry) {
        entry = { ev, candidates: new Set() };
        for (const rule of explainers.get(k) ?? [])
          for (const g of byRule.get(rule) ?? []) entry.candidates.add(g);
        lines.set(k, entry);
      }
      entry.candidates.add(f);
    }

  const owner = new Map<string, Finding>();
  for (const [k, { ev, candidates }] of lines) {
    const o = pickOwner([...candidates], ev.text);
    if (o) owner.set(k, o);
  }

  // Lines a finding gave up, and to whom; lines an owner adopts that it did not quote.
  const lost = new Map<Finding, Set<Finding>>();
  const lostCount = new Map<Finding, number>();
  const adopted = new Map<Finding, LogEvidence[]>();
  for (const f of a.findings) {
    const keep: Evidence[] = [];
    for (const ev of f.evidence) {
      if (!isLog(ev)) {
        keep.push(ev);
        continue;
      }
      const o = owner.get(lineKey(ev.path, ev.line));
      if (!o || o === f) {
        keep.push(ev);
        continue;
      }
      lost.set(f, (lost.get(f) ?? new Set()).add(o));
      lostCount.set(f, (lostCount.get(f) ?? 0) + 1);
      if (!o.evidence.some((x) => isLog(x) && x.path === ev.path && x.line === ev.line)) {
        const list = adopted.get(o) ?? [];
        if (!list.some((x) => x.path === ev.path && x.line === ev.line)) list.push(ev);
        adopted.set(o, list);
      }
    }
    f.evidence = keep;
  }
  for (const [o, list] of adopted) {
    const quoted = o.evidence.filter(isLog).length;
    const room = Math.max(0, MAX_ADOPTED - quoted);
    o.evidence.push(...(room > 0 ? list.slice(-room) : []));
    if (list.length > room)
      o.evidence.push({
        kind: 'text',
        text: `${list.length - room} more log line(s) of this kind are not quoted here.`,
      });
  }

  const dropped = new Map<string, string>();
  const findings: Finding[] = [];
  for (const f of a.findings) {
    const owners = lost.get(f);
    if (!owners) {
      if (isGeneric(f)) f.summary = `${unexplainedSentence(f)} ${f.summary}`;
      findings.push(f);
      continue;
    }
    const ids = [...owners].map((o) => o.id).join(', ');
    const remaining = f.evidence.filter(isLog).length;
    if (f.rule.startsWith('log.') && remaining === 0) {
      dropped.set(f.rule, `every matching line is evidence of a more specific finding (${ids})`);
      continue;
    }
    if (f.evidence.length === 0)
      f.evidence.push({ kind: 'text', text: `Its log lines are quoted under ${ids}.` });
    if (isGeneric(f))
      f.summary = `${unexplainedSentence(f)} ${lostCount.get(f)} other line(s) of this kind are evidence of ${ids}. ${f.summary}`;
    findings.push(f);
  }
  const checks = a.checks.map((c) =>
    dropped.has(c.rule) && !findings.some((f) => f.rule === c.rule)
      ? { rule: c.rule, status: 'pass' as const, reason: dropped.get(c.rule) as string }
      : c,
  );
  return { checks, findings };
}

function unexplainedSentence(f: Finding): string {
  const n = f.evidence.filter(isLog).length;
  return `No other finding explains ${n === 1 ? 'this line' : `these ${n} lines`}.`;
}

export const claimLogLinesStep: PostStep = {
  id: 'claim-log-lines',
  run: (a, { snapshot }) => claimLogLines(a, snapshot.logs.matches),
};
