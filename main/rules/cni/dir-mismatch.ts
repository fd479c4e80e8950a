import type { Rule, FindingDraft } from '../types';
import { offer } from '../offers';
import { fail, pass } from '../types';
import { confDirEvidence, locatedEvidence } from '../evidence';
import { isOutcome, judgedRuntimes } from './shared';
import { clusterCniName, isDefaultConfig } from '../cni-classify';
import { parsed } from '../derive';
import { pathKey } from '../../conventions/node-paths';
import { WELL_KNOWN_CONF_DIRS } from '../../conventions/cni-files';

export const cniDirMismatch: Rule = {
  id: 'cni.dir.mismatch',
  area: 'cni',
  severity: 'error',
  title: 'The cluster CNI wrote its config where the runtime does not read',
  firesWhen:
    "the runtime's conf dir has no loadable config (or only defaults) while another well-known conf dir holds a cluster CNI config",
  repair: {
    kind: 'auto',
    text: "set the runtime's conf dir to the folder that holds the cluster config",
  },
  platforms: ['linux', 'windows'],
  kb: [
    'docs/knowledge/node-layouts.md#distributions-with-other-paths',
    'docs/knowledge/windows-containerd.md#paths-and-defaults',
  ],
  evaluate(ctx) {
    const rts = judgedRuntimes(ctx);
    if (isOutcome(rts)) return rts;
    const s = ctx.snapshot;
    const os = s.node.os;
    const findings: FindingDraft[] = [];
    for (const rt of rts) {
      const load = rt.load;
      if (load.loadable.some((f) => !isDefaultConfig(f))) continue;
      const own = pathKey(os, rt.confDir.path).replace(/[\\/]+$/, '');
      for (const d of s.confDirs) {
        if (pathKey(os, d.path).replace(/[\\/]+$/, '') === own || !d.entries.known) continue;
        if (
          !(WELL_KNOWN_CONF_DIRS[os] as readonly string[]).some(
            (w) => pathKey(os, w) === pathKey(os, d.path),
          )
        )
          continue;
        const cluster = d.entries.value.filter(
          (f) => f.loadable && parsed(f)?.ok && !isDefaultConfig(f),
        );
        if (cluster.length === 0) continue;
        const c = rt.facts.cni.confDir;
        findings.push({
          key: `${rt.name}:${d.path}`,
          severity: 'error',
          runtime: rt.label,
          title: `${clusterCniName(cluster[0]!)} config is in ${d.path}, but ${rt.label} reads ${rt.confDir.path}`,
          summary: `${rt.label} loads CNI configs from ${rt.confDir.path} (${c.source === 'default' ? 'its built-in default' : `set in ${c.source}`}), which holds ${load.loadable.length === 0 ? 'no config' : 'only runtime defaults'}. The cluster CNI wrote ${cluster.map((f) => f.name).join(', ')} to ${d.path}, which ${rt.label} never reads.`,
          evidence: [
            locatedEvidence(s, c, 'conf dir'),
            confDirEvidence(rt)!,
            { kind: 'path', path: d.path, state: `holds ${cluster.map((f) => f.name).join(', ')}` },
          ],
          repairs: [
            offer(
              rt.name === 'crio' ? 'crio-set-network-dir' : 'containerd-set-conf-dir',
              `Point ${rt.label}'s conf dir at ${d.path} and restart it`,
              { dir: d.path },
            ),
          ],
        });
        break;
      }
    }
    return findings.length ? fail(...findings) : pass();
  },
};
