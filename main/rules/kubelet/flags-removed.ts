import type { Rule } from '../types';
import { offer } from '../offers';
import { fail, notApplicable, pass, unknown } from '../types';
import type { Evidence } from '../../../shared/model/finding';
import type { KubeletFacts, Snapshot } from '../../../shared/model/snapshot';
import { signatureById } from '../../logs/catalog';
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
    "the kubelet (≥ 1.24, or of unknown version while the runtime is not dockershim) is started with flags that were removed (`--network-plugin`, `--cni-conf-dir`, `--cni-bin-dir`, `--cni-cache-dir`, `--docker-endpoint`, `--network-plugin-mtu`, …): its running command line, else what starts it (Linux: flag files and unit drop-ins; Windows: the `kubelet` service's nssm AppParameters or ImagePath, or the start script either names, default `C:\\k\\StartKubelet.ps1`, quoted by line). A kubelet that is not running and whose command line cannot be found is `unknown`",
  repair: {
    kind: 'auto',
    text: 'remove the flags from the file (Windows: the start script) that carries them, restart the kubelet; flags in a service registry value (nssm AppParameters, ImagePath) get guidance',
  },
  platforms: ['linux', 'windows'],
  kb: [
    'docs/knowledge/kubelet-and-cri.md#flags-the-kubelet-no-longer-accepts',
    'docs/knowledge/windows-node.md#how-the-kubelet-is-started',
  ],
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
    if (bad.length === 0) {
      // A kubelet that is not running may crash-loop on exactly these flags: without the command
      // line that starts it there is nothing to judge, which is not a pass.
      if (!k.running && k.launch?.source === 'none') return unknown(noCommandLine(ctx.snapshot, k));
      return pass();
    }
    const evidence: Evidence[] = [];
    for (const src of [...new Set(bad.map((f) => f.source))]) {
      const text = findText(s, src);
      const lines = bad
        .filter((f) => f.source === src && f.line !== undefined)
        .map((f) => f.line as number);
      const reg = k.launch?.registry?.find((r) => `${r.key}\\${r.value}` === src);
      if (text) evidence.push({ kind: 'file', path: src, lines: excerpt(text, lines) });
      else if (reg)
        evidence.push({
          kind: 'registry',
          key: reg.key,
          value: reg.value,
          data: reg.data,
          note: `the kubelet service's command line (${bad
            .filter((f) => f.source === src)
            .map((f) => `--${f.name}`)
            .join(', ')})`,
        });
      else
        evidence.push({
          kind: 'process',
          name: 'kubelet',
          args: bad
            .filter((f) => f.source === src)
            .map((f) => `--${f.name}${f.value !== undefined ? `=${f.value}` : ''}`),
        });
    }
    // A flag a file line carries can be removed there; one from a process or registry value cannot.
    const fileFlags = bad.filter((f) => !f.source.startsWith('process:') && f.line !== undefined);
    return fail({
      severity: 'error',
      title: `kubelet${version ? ` ${version}` : ''} is started with removed flag(s): ${bad.map((f) => `--${f.name}`).join(', ')}`,
      summary: `These flags were removed with dockershim; the kubelet exits with "failed to parse kubelet flag: unknown flag: --${bad[0]!.name}" and ${ctx.snapshot.node.os === 'windows' ? 'its service restarts it' : 'systemd restarts it'} in a loop, so the node goes NotReady.`,
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
        guidance: bad.some((f) =>
          k.launch?.registry?.some((r) => `${r.key}\\${r.value}` === f.source),
        )
          ? "Some flags come from the kubelet service's registry value (nssm: `nssm edit kubelet`, or `nssm set kubelet AppParameters …`; a plain service: `sc.exe config kubelet binPath= …`); remove them there."
          : 'Some flags come from the kubelet command line itself (its unit file or the tool that starts it); remove them there.',
      }),
    });
  },
};

/** Why the flags cannot be judged: what was looked at, and what the kubelet's own log says. */
function noCommandLine(snapshot: Snapshot, k: KubeletFacts): string {
  const looked = k.launch?.notes.length ? ` (${k.launch.notes.join('; ')})` : '';
  const refused = snapshot.logs.matches.find(
    (m) => signatureById(m.signatureId)?.attachesTo === kubeletFlagsRemoved.id,
  );
  return `the kubelet is not running and the command line that starts it was not found${looked}${
    refused
      ? `; ${refused.path} line ${refused.line} says: ${refused.text.trim().slice(0, 200)}`
      : ''
  }`;
}
