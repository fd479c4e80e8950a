import type { Rule } from '../types';
import { offer } from '../offers';
import { fail, notApplicable, pass, unknown } from '../types';
import { confDirEvidence, locatedEvidence } from '../evidence';
import { parsed } from '../derive';
import { isDefaultConfig } from '../cni-classify';

export const crioNetworkDefaultMissing: Rule = {
  id: 'crio.network.default-missing',
  area: 'crio',
  severity: 'error',
  title: "CRI-O's cni_default_network names a network no config defines",
  firesWhen:
    '`cni_default_network` names a network that no loadable config in `network_dir` defines',
  repair: {
    kind: 'auto',
    text: "set `cni_default_network` (in a drop-in under `crio.conf.d`) to the cluster CNI's network name, or unset it",
  },
  platforms: ['linux'],
  kb: [
    'docs/knowledge/cni-loading.md#each-runtime-loads-differently',
    'docs/knowledge/cri-o.md#the-crionetwork-table',
  ],
  evaluate(ctx) {
    const s = ctx.snapshot;
    if (s.node.os === 'windows') return notApplicable('CRI-O does not run on Windows');
    if (!s.crio.known) return unknown(s.crio.reason);
    const rt = ctx.derived.runtimes.find((r) => r.name === 'crio');
    if (!s.crio.value || !rt) return notApplicable('CRI-O is not installed');
    if (!rt.usedByKubelet) return notApplicable('the kubelet does not use CRI-O');
    const want = s.crio.value.cni.defaultNetwork;
    if (!want) return pass();
    if (!rt.load) return unknown(`CRI-O's network_dir could not be listed`);
    const names = rt.load.valid.map((f) => (parsed(f) as { network?: string }).network ?? f.name);
    if (names.includes(want.value)) return pass();
    const unreadable = rt.load.unreadable[0];
    if (unreadable)
      return unknown(`${unreadable.path} could not be read; it may define network "${want.value}"`);
    const cluster = rt.load.valid.filter((f) => !isDefaultConfig(f));
    const target =
      cluster.length === 1
        ? ((parsed(cluster[0]!) as { network?: string }).network ?? cluster[0]!.name)
        : undefined;
    return fail({
      severity: 'error',
      runtime: 'CRI-O',
      title: `cni_default_network = "${want.value}", but no config in ${rt.confDir?.path} defines that network`,
      summary: `CRI-O waits for a network named "${want.value}"; until one appears it reports the network as not ready ("no CNI configuration file"), and pods stay in ContainerCreating. Networks defined now: ${names.length ? names.map((n) => `"${n}"`).join(', ') : 'none'}.`,
      evidence: [locatedEvidence(s, want, 'cni_default_network'), confDirEvidence(rt)!],
      repairs: [
        target
          ? offer(
              'crio-set-default-network',
              `Set cni_default_network = "${target}" in a CRI-O drop-in and restart CRI-O`,
              { network: target },
            )
          : offer(
              'crio-set-default-network',
              'Unset cni_default_network in a CRI-O drop-in (use the first valid config) and restart CRI-O',
              { network: '' },
            ),
      ],
    });
  },
};
