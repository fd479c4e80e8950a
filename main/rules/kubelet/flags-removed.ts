import type { Rule } from '../types';
import { offer } from '../offers';
import { fail, notApplicable, pass, unknown } from '../types';
import type { Evidence } from '../../../shared/model/finding';
import { compareVersions } from '../versions';
import { excerpt, findText } from '../evidence';
import { endpointToPath } from '../../conventions/endpoint';

/** kubelet flags and the release that removed them (docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from). */
export const REMOVED_KUBELET_FLAGS: Record<string, string> = {
  'network-plugin': '1.24',
  'cni-conf-dir': '1.24',
  'cni-bin-dir': '1.24',
  'cni-cache-dir': '1.24',
  'docker-endpoint': '1.24',
  'network-plugin-mtu': '1.24',
  'experimental-dockershim-root-directory': '1.24',
  'image-pull-progress-deadline': '1.24',
  'container-runtime': '1.27',
};

export const kubeletFlagsRemoved: Rule = {
  id: 'kubelet.flags.removed',
  area: 'kubelet',
  severity: 'error',
  title: 'The kubelet is started with flags its release removed',
  firesWhen:
    'the kubelet (≥ 1.24, or of unknown version while the runtime is not dockershim) is started with flags that were removed (`--network-plugin`, `--cni-conf-dir`, `--cni-bin-dir`, `--cni-cache-dir`, `--docker-endpoint`, `--network-plugin-mtu`, …)',
  repair: {
    kind: 'auto',
    text: 'remove the flags from the file that carries them, restart the kubelet',
  },
  platforms: ['linux', 'windows'],
  kb: ['docs/knowledge/kubelet-and-cri.md#flags-the-kubelet-no-longer-accepts'],
  evaluate(ctx) {
    const s = ctx.snapshot;
    if (!s.kubelet.known) return unknown(s.kubelet.reason);
    const k = s.kubelet.value;
    if (!k) return notApplicable('no kubelet on this node');
    const version = k.version;
    const dockershim = k.endpoint
      ? endpointToPath(k.endpoint.value).path.includes('dockershim')
      : false;
    if (!version && dockershim)
      return notApplicable('a dockershim-era kubelet still accepts these flags');
    const bad = k.flags.filter((f) => {
      const removedIn = REMOVED_KUBELET_FLAGS[f.name];
      if (!removedIn) return false;
      return version ? compareVersions(version, removedIn) >= 0 : true;
    });
    if (bad.length === 0) return pass();
    const evidence: Evidence[] = [];
    for (const src of [...new Set(bad.map((f) => f.source))]) {
      const text = findText(s, src);
      const lines = bad
        .filter((f) => f.source === src && f.line !== undefined)
        .map((f) => f.line as number);
      if (text) evidence.push({ kind: 'file', path: src, lines: excerpt(text, lines) });
      else
        evidence.push({
          kind: 'process',
          name: 'kubelet',
          args: bad
            .filter((f) => f.source === src)
            .map((f) => `--${f.name}${f.value !== undefined ? `=${f.value}` : ''}`),
        });
    }
    const fileFlags = bad.filter((f) => !f.source.startsWith('process:'));
    return fail({
      severity: 'error',
      title: `kubelet${version ? ` ${version}` : ''} is started with removed flag(s): ${bad.map((f) => `--${f.name}`).join(', ')}`,
      summary: `These flags were removed with dockershim; the kubelet exits with "failed to parse kubelet flag: unknown flag: --${bad[0]!.name}" and systemd restarts it in a loop, so the node goes NotReady.`,
      evidence,
      repairs:
        fileFlags.length === bad.length
          ? [
              offer(
                'kubelet-remove-flags',
                `Remove ${bad.map((f) => `--${f.name}`).join(', ')} from ${[...new Set(fileFlags.map((f) => f.source))].join(', ')} and restart the kubelet`,
                { flags: bad.map((f) => f.name) },
              ),
            ]
          : [],
      ...(fileFlags.length !== bad.length && {
        guidance:
          'Some flags come from the kubelet command line itself (its unit file or the tool that starts it); remove them there.',
      }),
    });
  },
};
