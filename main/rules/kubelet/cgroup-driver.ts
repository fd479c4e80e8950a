import type { Rule, FindingDraft } from '../types';
import { offer } from '../offers';
import { fail, notApplicable, pass, unknown } from '../types';
import { locatedEvidence } from '../evidence';
import { compareVersions } from '../versions';
import type { ContainerdFacts, CrioFacts, Located } from '../../../shared/model/snapshot';
import { noJudgedRuntimeReason, type RuntimeView } from '../derive';

function runtimeDriver(rt: RuntimeView): Located<string> {
  if (rt.name === 'containerd') {
    const sc = (rt.facts as ContainerdFacts).systemdCgroup;
    return sc
      ? { ...sc, value: sc.value ? 'systemd' : 'cgroupfs' }
      : { value: 'cgroupfs', source: 'default' };
  }
  return (rt.facts as CrioFacts).cgroupManager ?? { value: 'systemd', source: 'default' };
}

/** KubeletCgroupDriverFromCRI: kubelet ≥ 1.31 asks the runtime when it can answer (docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from). */
function driverFromCri(kubelet: string | undefined, rt: RuntimeView): boolean {
  if (!kubelet || compareVersions(kubelet, '1.31') < 0) return false;
  const v = rt.facts.version;
  if (!v) return false;
  return rt.name === 'containerd'
    ? compareVersions(v, '2.0') >= 0
    : compareVersions(v, '1.28') >= 0;
}

export const kubeletCgroupDriverMismatch: Rule = {
  id: 'kubelet.cgroup-driver.mismatch',
  area: 'kubelet',
  severity: 'error',
  title: "The kubelet's cgroup driver differs from the runtime's",
  firesWhen:
    "the kubelet's `cgroupDriver` differs from the runtime's (containerd `SystemdCgroup`, CRI-O `cgroup_manager`)",
  repair: {
    kind: 'auto',
    text: "set the runtime's driver to match, restart it (warn: disruptive)",
  },
  platforms: ['linux'],
  kb: ['docs/knowledge/kubelet-and-cri.md#cgroup-driver'],
  evaluate(ctx) {
    const s = ctx.snapshot;
    if (s.node.os === 'windows') return notApplicable('cgroup drivers do not exist on Windows');
    if (!s.kubelet.known) return unknown(s.kubelet.reason);
    const k = s.kubelet.value;
    if (!k) return notApplicable('no kubelet on this node');
    if (k.config && !k.config.known)
      return unknown(`the kubelet config could not be read: ${k.config.reason}`);
    const kubeletDriver: Located<string> = k.cgroupDriver ?? {
      value: 'cgroupfs',
      source: 'default',
    };
    const findings: FindingDraft[] = [];
    for (const rt of ctx.derived.judged) {
      if (driverFromCri(k.version, rt)) continue;
      const rd = runtimeDriver(rt);
      if (rd.value === kubeletDriver.value) continue;
      findings.push({
        key: rt.name,
        severity: 'error',
        runtime: rt.label,
        title: `kubelet uses the ${kubeletDriver.value} cgroup driver, ${rt.label} uses ${rd.value}`,
        summary: `With different cgroup drivers, containers fail to start ("expected cgroupsPath to be of format \\"slice:prefix:name\\" for systemd cgroups") or control-plane pods flap in CrashLoopBackOff.`,
        evidence: [
          locatedEvidence(s, kubeletDriver, 'kubelet cgroupDriver'),
          locatedEvidence(s, rd, `${rt.label} cgroup driver`),
        ],
        repairs:
          rt.name === 'containerd'
            ? [
                offer(
                  'containerd-set-systemd-cgroup',
                  `Set SystemdCgroup = ${kubeletDriver.value === 'systemd'} in containerd's config and restart containerd (running containers keep running; restarts are disruptive for new pods)`,
                  { value: kubeletDriver.value === 'systemd' },
                ),
              ]
            : [
                offer(
                  'crio-set-cgroup-manager',
                  `Set cgroup_manager = "${kubeletDriver.value}" in a CRI-O drop-in and restart CRI-O`,
                  { value: kubeletDriver.value },
                ),
              ],
      });
    }
    if (ctx.derived.judged.length === 0)
      return notApplicable(noJudgedRuntimeReason(s, ctx.derived));
    return findings.length ? fail(...findings) : pass();
  },
};
