/**
 * Log signatures that no rule covers become their own checks `log.<topic>` (rules.md "Logs"):
 * fail with the matching lines, pass when the logs were scanned and hold none, unknown when no
 * log could be read.
 */
import type { Evidence } from '../../../shared/model/finding';
import { allSignatures } from '../../logs/catalog';
import type { LogSignature } from '../../logs/types';
import type { Rule } from '../types';
import { accessDeniedReason, isAccessDenied } from '../../conventions/access-denied';
import { fail, notApplicable, pass, unknown } from '../types';

const MAX_LINES = 20;

function topicRule(topic: string, sigs: LogSignature[]): Rule {
  const first = sigs[0] as LogSignature;
  const platforms = [...new Set(sigs.map((s) => s.platform))].flatMap((p) =>
    p === 'any' ? ['linux', 'windows'] : [p],
  ) as ('linux' | 'windows')[];
  return {
    id: topic.startsWith('log.') ? topic : `log.${topic}`,
    area: 'logs',
    severity: first.severity ?? 'warning',
    // A line written before the last configuration change drops its finding to info
    // (engine/post/old-log-lines.ts).
    ...(first.severity !== 'info' && {
      severityWhen: {
        [first.severity ?? 'warning']:
          'a matching line is newer than the last configuration change',
        info: 'every matching line was written before the last configuration change',
      },
    }),
    title: first.title,
    firesWhen: `a runtime, kubelet or CNI log line matches: ${sigs.map((s) => `\`${s.pattern}\``).join(' or ')}${
      sigs.some((s) => s.generic)
        ? " — and no more specific finding explains the line (a line another finding explains is that finding's evidence; when every line is, the check passes and says which finding holds them)"
        : ''
    }`,
    repair: { kind: 'guidance', text: 'the fix the matching log signature names' },
    platforms: [...new Set(platforms)],
    kb: [...new Set(sigs.flatMap((s) => s.kb))],
    evaluate({ snapshot: s }) {
      if (!platforms.includes(s.node.os))
        return notApplicable(`a ${platforms.join('/')} log signature`);
      const ids = new Set(sigs.map((x) => x.id));
      const hits = s.logs.matches.filter((m) => ids.has(m.signatureId));
      if (hits.length === 0) {
        const scanned = s.logs.sources.some((x) => x.state === 'scanned');
        if (scanned) return pass();
        const denied = s.logs.sources.filter(
          (x) => x.state === 'unreadable' && isAccessDenied(x.error),
        );
        return unknown(
          denied.length
            ? accessDeniedReason(
                denied.length > 2
                  ? `${denied
                      .slice(0, 2)
                      .map((x) => x.path)
                      .join(', ')} and ${denied.length - 2} more logs`
                  : denied.map((x) => x.path).join(', '),
                s.node.os,
              )
            : 'no runtime, kubelet or CNI log could be read',
        );
      }
      const evidence: Evidence[] = hits.slice(-MAX_LINES).map((m) => ({
        kind: 'log',
        path: m.path,
        line: m.line,
        text: m.text,
        signature: m.signatureId,
        ...(m.tailBytes !== undefined && { tailBytes: m.tailBytes }),
      }));
      // A topic groups lines from several components (containerd, CRI-O, cri-dockerd): explain
      // the newest line with its own signature, not the topic's first one.
      const latest = sigs.find((x) => x.id === hits[hits.length - 1]?.signatureId) ?? first;
      return fail({
        severity: first.severity ?? 'warning',
        title: latest.title,
        summary: latest.explanation,
        evidence,
        repairs: [],
        guidance: latest.fix,
      });
    },
  };
}

export function logTopicRules(): Rule[] {
  const byTopic = new Map<string, LogSignature[]>();
  for (const sig of allSignatures) {
    if (!sig.topic) continue;
    const list = byTopic.get(sig.topic) ?? [];
    list.push(sig);
    byTopic.set(sig.topic, list);
  }
  return [...byTopic.entries()].map(([topic, sigs]) => topicRule(topic, sigs));
}
