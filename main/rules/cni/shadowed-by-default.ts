import type { Rule, FindingDraft, RepairOffer } from '../types';
import { offer } from '../offers';
import { confDirEvidence } from '../evidence';
import { judgeEachRuntime } from './shared';
import { clusterCniName, isDefaultConfig } from '../cni-classify';
import { parsed } from '../derive';

export const cniConfShadowedByDefault: Rule = {
  id: 'cni.conf.shadowed-by-default',
  area: 'cni',
  severity: 'error',
  title: "A runtime's default CNI config shadows the cluster's",
  firesWhen:
    'the config in use is a runtime or tool default (10-containerd-net.conflist, 100-crio-bridge.conf*, 11-crio-ipv4-bridge.conflist, 200-loopback.conf, 87-podman*.conflist, nerdctl-*.conflist, Windows 0-containerd-nat.json, …) while a cluster CNI config is present in the same conf dir, sorting after it or skipped by the runtime',
  repair: {
    kind: 'auto',
    text: 'disable the shadowing default(s) so the cluster CNI wins; never leave zero loadable configs',
  },
  platforms: ['linux', 'windows'],
  kb: [
    'docs/knowledge/cni-loading.md#load-order-on-a-real-node',
    'docs/knowledge/windows-containerd.md#which-config-wins',
  ],
  evaluate(ctx) {
    return judgeEachRuntime(ctx, (rt) => {
      const { load } = rt;
      const findings: FindingDraft[] = [];
      const usedDefaults = load.inUse.filter(isDefaultConfig);
      if (usedDefaults.length === 0) return findings;
      const cluster = load.loadable.filter((f) => !isDefaultConfig(f) && !load.inUse.includes(f));
      if (cluster.length === 0) return findings;
      const clusterValid = cluster.filter((f) => parsed(f)?.ok);
      // Only a cluster config the runtime can use wins once the defaults are gone; one CRI-O skips
      // (plugin missing) would leave it with no network at all.
      const firstCluster = clusterValid.find((f) => !load.skippedForPlugins.includes(f));
      // Every default that sorts before the first usable cluster config must go, or it still wins.
      const shadowing = firstCluster
        ? load.loadable.filter(
            (f) =>
              isDefaultConfig(f) && load.loadable.indexOf(f) < load.loadable.indexOf(firstCluster),
          )
        : [];
      const cniName = clusterCniName(clusterValid[0] ?? cluster[0]!);
      const defaultNet = usedDefaults
        .map(
          (f) =>
            `${f.name}${parsed(f)?.ok && (parsed(f) as { network?: string }).network ? ` (network "${(parsed(f) as { network?: string }).network}")` : ''}`,
        )
        .join(', ');
      const subnet = usedDefaults
        .flatMap((f) =>
          parsed(f)?.ok ? (parsed(f) as { plugins: { subnet?: string }[] }).plugins : [],
        )
        .find((p) => p.subnet)?.subnet;
      const repairs: RepairOffer[] =
        firstCluster && shadowing.length > 0
          ? [
              offer(
                'disable-files',
                `Disable ${shadowing.map((f) => f.name).join(', ')} so ${firstCluster.name} (${cniName}) is used`,
                { paths: shadowing.map((f) => f.path) },
              ),
            ]
          : [];
      findings.push({
        key: rt.name,
        severity: 'error',
        runtime: rt.label,
        title: `${rt.label} uses the default ${usedDefaults[0]!.name} instead of ${cniName}`,
        summary: `${rt.label} loads ${defaultNet} first, so new pods are wired by that default network (a host-local bridge or NAT)${subnet ? ` and get addresses from ${subnet}` : ''} instead of ${cniName} (${cluster.map((f) => f.name).join(', ')}). Pods on this node then cannot reach pods elsewhere, or sandbox creation fails when the default's plugin is missing.`,
        evidence: [confDirEvidence(rt)!],
        repairs,
        ...(repairs.length === 0 && {
          guidance: noRepairGuidance(
            rt.name,
            cluster[0]!.name,
            clusterValid.length > 0,
            firstCluster !== undefined,
          ),
        }),
      });
      return findings;
    });
  },
};

/** Why disabling the defaults would not help, and what does. */
function noRepairGuidance(
  runtime: string,
  cluster: string,
  valid: boolean,
  usable: boolean,
): string {
  if (!valid) return `The cluster config ${cluster} is itself invalid; fix it first.`;
  if (!usable)
    return `${runtime === 'crio' ? 'CRI-O skips' : 'The runtime skips'} ${cluster} because a plugin binary is missing (see cni.plugin.missing); disabling the default would leave no network. Fix the plugin dirs first.`;
  if (runtime === 'crio')
    return 'CRI-O selects the default by name (cni_default_network), not by load order: set cni_default_network to the cluster network instead of disabling files.';
  return `The default is loaded next to ${cluster} (max_conf_num above 1), not instead of it; disable it by hand if pods should not get its interface.`;
}
