/**
 * The one ranking of findings: what every door shows first and calls "most likely cause"
 * (summary.topFindingId, the first finding of `scan --json`, the first line of the text report,
 * the Overview card). Severity first; within a severity, causes before the symptoms they
 * explain, and generic log findings ("a sandbox failed") after every specific one.
 */
import type { Finding } from '../../../shared/model/finding';
import { SEVERITY_RANK } from '../../../shared/model/finding';
import { GENERIC_LOG_TOPICS } from '../../logs/catalog';
import type { PostStep } from './types';

/** Causes before symptoms: a root cause outranks `cri.network.not-ready`, which it explains. */
export const CAUSE_ORDER: readonly string[] = [
  'containerd.config.invalid',
  'containerd.service.stopped',
  'containerd.cri.disabled',
  'cri.endpoint.missing',
  'cri.endpoint.unreachable',
  'kubelet.flags.removed',
  'windows.netns.unsupported',
  'windows.cnisock.missing',
  'hns.network.missing',
  'cni.conf.none',
  'cni.dir.mismatch',
  'cni.conf.invalid',
  'cni.conf.shadowed-by-default',
  'cni.plugin.missing',
  'cni.plugin.unusable',
  'cni.version.unsupported',
  'crio.network.default-missing',
  'cni.kernel.prerequisites',
  'cni.ipam.leaked',
  'kubelet.cgroup-driver.mismatch',
  'cri.cni.not-reloaded',
  'cri.network.not-ready',
];

/** Lower is more likely the cause: listed causes, then other rules, then generic log topics. */
export function causeRank(f: Finding): number {
  const i = CAUSE_ORDER.indexOf(f.rule);
  if (i !== -1) return i;
  return GENERIC_LOG_TOPICS.has(f.rule) ? CAUSE_ORDER.length + 1 : CAUSE_ORDER.length;
}

/** Most likely cause first; equal findings keep the order the rules produced them in. */
export function rankFindings(findings: readonly Finding[]): Finding[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort(
      (a, b) =>
        SEVERITY_RANK[b.f.severity] - SEVERITY_RANK[a.f.severity] ||
        causeRank(a.f) - causeRank(b.f) ||
        a.i - b.i,
    )
    .map((x) => x.f);
}

/** The finding most likely to explain a stuck sandbox: the first ranked at warning or above. */
export function topFinding(findings: readonly Finding[]): Finding | undefined {
  const first = rankFindings(findings)[0];
  return first && first.severity !== 'info' ? first : undefined;
}

export const rankStep: PostStep = {
  id: 'rank',
  run: (a) => ({ ...a, findings: rankFindings(a.findings) }),
};
