import type { FindingDraft, Rule } from '../types';
import { confDirEvidence, confFileEvidence } from '../evidence';
import { judgeEachRuntime } from './shared';
import { networkNameError, parsed } from '../derive';

/**
 * libcni checks the network name before it runs any plugin, for every plugin
 * (libcni/api.go@v1.3.0 L499, pkg/utils/utils.go@v1.1.2 L29, L50-58): a config the runtime loads
 * happily can still refuse every pod. containerd uses the name as written; CRI-O names a
 * nameless network after its file first (docs/knowledge/cni-loading.md#error-strings-from-libcni-and-plugins).
 */
export const cniNetworkAddRefused: Rule = {
  id: 'cni.network.add-refused',
  area: 'cni',
  severity: 'error',
  title: 'The CNI network in use has a name libcni refuses at ADD',
  firesWhen:
    'the network in use has no name (containerd) or one outside `[a-zA-Z0-9][a-zA-Z0-9_.-]*`: libcni fails every ADD with `missing network name` / `invalid characters found in network name` before running a plugin',
  repair: { kind: 'guidance', text: 'give the network a plain name in its config file' },
  platforms: ['linux', 'windows'],
  kb: ['docs/knowledge/cni-loading.md#error-strings-from-libcni-and-plugins'],
  evaluate(ctx) {
    return judgeEachRuntime(ctx, (rt) => {
      const findings: FindingDraft[] = [];
      const f = rt.load.inUse[0];
      if (!f) return findings;
      const p = parsed(f, rt.profile.libcni);
      if (!p?.ok) return findings;
      const name = p.network || (rt.name === 'crio' ? f.name : '');
      const why = networkNameError(name);
      if (!why) return findings;
      findings.push({
        key: `${rt.name}:${f.name}`,
        severity: 'error',
        runtime: rt.label,
        title: `${f.name} is in use, but libcni refuses its network name: ${why}`,
        summary: `${rt.label} loads ${f.name}${name ? ` (network "${name}")` : ' (no network name)'}, and libcni checks the name before it runs any plugin, so every pod sandbox fails with "${why}". The ${rt.profile.note}.`,
        evidence: [confFileEvidence(f, why), confDirEvidence(rt)!].filter((e) => e !== undefined),
        repairs: [],
        guidance: `Set "name" in ${f.name} to letters, digits, "_", "." and "-" only, starting with a letter or digit (the CNI's installer writes it; fix it there so it is not rewritten).`,
      });
      return findings;
    });
  },
};
