import type { Rule, FindingDraft } from '../types';
import { unknown } from '../types';
import { confFileEvidence } from '../evidence';
import { judgeEachRuntime } from './shared';
import { parsed, runtimeVersionOf } from '../derive';
import { compareVersions, parseVersion } from '../versions';

/**
 * The newest cniVersion each containerd line's libcni parses (docs/knowledge/cni-loading.md#cni-versions-each-runtime-can-parse table).
 * CRI-O: 1.26+ vendors libcni ≥ 1.1 (1.0.0); older ones 0.4.0 (docs/knowledge/cri-o.md#versions-that-matter).
 */
export function maxCniVersion(runtime: 'containerd' | 'crio', version: string): string | undefined {
  const v = parseVersion(version);
  if (!v) return undefined;
  if (runtime === 'containerd') {
    if (v[0] >= 2) return '1.1.0';
    if (v[0] === 1 && v[1] >= 6) return '1.0.0';
    return '0.4.0';
  }
  if (v[0] === 1 && v[1] >= 30) return '1.1.0';
  if (v[0] === 1 && v[1] >= 23) return '1.0.0';
  return '0.4.0';
}

export const cniVersionUnsupported: Rule = {
  id: 'cni.version.unsupported',
  area: 'cni',
  severity: 'error',
  title: "The config in use declares a cniVersion the runtime's CNI library cannot parse",
  firesWhen:
    "the config in use declares a `cniVersion` newer than the runtime's CNI library can parse (needs the runtime version)",
  repair: {
    kind: 'guidance',
    text: 'upgrade the runtime to a release whose CNI library reads that version, or have the installer write an older cniVersion',
  },
  platforms: ['linux', 'windows'],
  kb: ['docs/knowledge/cni-loading.md#cni-versions-each-runtime-can-parse'],
  evaluate(ctx) {
    return judgeEachRuntime(ctx, (rt) => {
      const { load } = rt;
      const findings: FindingDraft[] = [];
      const declared = load.inUse
        .map((f) => ({ f, v: (parsed(f) as { cniVersion?: string } | undefined)?.cniVersion }))
        .filter((x) => x.v);
      if (declared.length === 0) return findings;
      const version = runtimeVersionOf(rt);
      if (!version) return unknown(`the version of ${rt.label} is not known`);
      const max = maxCniVersion(rt.name, version);
      if (!max) return unknown(`cannot read ${rt.label}'s version "${version}"`);
      for (const { f, v } of declared) {
        if (compareVersions(v as string, max) <= 0) continue;
        findings.push({
          key: `${rt.name}:${f.name}`,
          severity: 'error',
          runtime: rt.label,
          title: `${f.name} declares cniVersion ${v}; ${rt.label} ${version} parses up to ${max}`,
          summary: `${rt.label} ${version} ships a CNI library that understands cniVersion up to ${max}, so it cannot use ${f.name} (cniVersion ${v}) and pods fail with "incompatible CNI versions" or the network stays not ready.`,
          evidence: [confFileEvidence(f)],
          repairs: [],
          guidance: `Upgrade ${rt.label} to a release whose CNI library supports ${v} (containerd 2.0+ for 1.1.0, 1.6+ for 1.0.0), or have the CNI installer write cniVersion ${max}.`,
        });
      }
      return findings;
    });
  },
};
