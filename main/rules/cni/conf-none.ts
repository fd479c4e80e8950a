import type { Rule } from '../types';
import { offer } from '../offers';
import { fail, pass, unknown } from '../types';
import type { FindingDraft, RepairOffer } from '../types';
import { confDirEvidence } from '../evidence';
import { isOutcome, judgedRuntimes } from './shared';
import { parsed } from '../derive';
import { disabledOriginal } from '../../conventions/cni-files';

export const cniConfNone: Rule = {
  id: 'cni.conf.none',
  area: 'cni',
  severity: 'error',
  title: "The runtime's CNI conf dir holds no valid config",
  firesWhen:
    "the runtime's CNI conf dir holds no valid config (none loadable, or every loadable one invalid); may fire together with `cni.dir.mismatch`",
  repair: {
    kind: 'auto',
    text: 're-enable a disabled config (`*.disabled`, `*.mk_disabled`, `*.cilium_bak`) when exactly one candidate exists; otherwise guidance',
  },
  platforms: ['linux', 'windows'],
  kb: [
    'docs/knowledge/cni-loading.md#containerds-loader',
    'docs/knowledge/cni-loading.md#each-runtime-loads-differently',
  ],
  evaluate(ctx) {
    const rts = judgedRuntimes(ctx);
    if (isOutcome(rts)) return rts;
    const findings: FindingDraft[] = [];
    for (const rt of rts) {
      const load = rt.load;
      const dir = rt.confDir;
      if (!load || !dir) continue;
      if (load.valid.length > 0) continue;
      if (load.unreadable.length > 0)
        return unknown(`${load.unreadable[0]?.path} could not be read`);
      const candidates = (dir.entries.known ? dir.entries.value : []).filter(
        (f) => f.disabledVariant && parsed(f)?.ok,
      );
      const repairs: RepairOffer[] = [];
      if (candidates.length === 1) {
        const c = candidates[0]!;
        repairs.push(
          offer('rename-file', `Re-enable ${c.name} as ${disabledOriginal(c.name)}`, {
            from: c.path,
            to:
              c.path.slice(0, c.path.length - c.name.length) + (disabledOriginal(c.name) ?? c.name),
          }),
        );
      }
      const why = dir.missing
        ? `${dir.path} does not exist`
        : load.loadable.length === 0
          ? `${dir.path} has no .conf, .conflist or .json file`
          : `every config in ${dir.path} is invalid`;
      findings.push({
        key: rt.name,
        severity: 'error',
        runtime: rt.label,
        title: `${rt.label} has no CNI network config: pods cannot get a network`,
        summary: `${why}. ${rt.label} reports the network as not ready ("cni plugin not initialized"), so every pod that is not hostNetwork stays in ContainerCreating with FailedCreatePodSandBox.`,
        evidence: [
          confDirEvidence(rt) ?? {
            kind: 'path',
            path: dir.path,
            state: dir.missing ? 'missing' : 'empty',
          },
        ],
        repairs,
        guidance:
          candidates.length > 1
            ? `Several disabled configs could be re-enabled (${candidates.map((c) => c.name).join(', ')}); rename the one of your cluster's CNI back.`
            : candidates.length === 0
              ? 'The cluster CNI agent (a DaemonSet such as calico-node, kube-flannel, antrea-agent, cilium) writes its config when it starts: check that its pod runs on this node (kubectl -n kube-system get pods -o wide) and read its logs.'
              : undefined,
      } as FindingDraft);
    }
    return findings.length ? fail(...findings) : pass();
  },
};
