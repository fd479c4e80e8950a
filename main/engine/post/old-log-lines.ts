/**
 * Log lines older than the configuration: a line written before the conf dir or a runtime
 * config last changed may describe a state that no longer exists. Each such line says so
 * ("before the last change of …"), and a log finding that rests only on such lines says it in its
 * summary and drops to info, so nobody chases what was already fixed.
 */
import type { Evidence, Finding } from '../../../shared/model/finding';
import type { Snapshot } from '../../../shared/model/snapshot';
import { lineTime } from '../../logs/timestamp';
import type { PostStep } from './types';

type LogEvidence = Extract<Evidence, { kind: 'log' }>;

/** The newest change to the configuration, if any time is known. */
function lastChange(s: Snapshot): { path: string; at: number } | undefined {
  let best: { path: string; at: number } | undefined;
  for (const c of s.configChanges ?? []) {
    const at = Date.parse(c.mtime);
    // On a tie the later path wins: a file in the dir names the change better than the dir.
    if (!Number.isNaN(at) && (!best || at >= best.at)) best = { path: c.path, at };
  }
  return best;
}

const shown = (ms: number): string =>
  `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}Z`;

export function markOldLogLines(findings: Finding[], s: Snapshot): Finding[] {
  const change = lastChange(s);
  if (!change) return findings;
  const reference = Date.parse(s.node.collectedAt ?? '') || change.at;
  const note = `before the last change of ${change.path} (${shown(change.at)})`;
  for (const f of findings) {
    const logs = f.evidence.filter((e): e is LogEvidence => e.kind === 'log');
    let old = 0;
    for (const e of logs) {
      const t = lineTime(e.text, reference);
      if (t !== undefined && t < change.at) {
        e.note = note;
        old++;
      }
    }
    // A log-only finding whose every line predates the change reports the past: worth knowing,
    // not a cause to chase now.
    if (old > 0 && old === logs.length && f.rule.startsWith('log.')) {
      f.summary = `Every line below was written ${note}; it may describe a state that no longer exists. ${f.summary}`;
      f.severity = 'info';
    }
  }
  return findings;
}

export const oldLogLinesStep: PostStep = {
  id: 'old-log-lines',
  run: (a, { snapshot }) => ({ ...a, findings: markOldLogLines(a.findings, snapshot) }),
};
