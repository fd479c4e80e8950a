import type { Rule } from '../types';
import type { Evidence } from '../../../shared/model/finding';
import { fail, pass, unknown } from '../types';
import { confFileEvidence } from '../evidence';
import { isRuntime, windowsContainerd } from './shared';
import { parsed } from '../derive';
import { compareVersions } from '../versions';
import { allSignatures } from '../../logs/catalog';

const DOCKERSHIM_PLUGINS = new Set(['win-bridge', 'win-overlay']);

export const windowsNetnsUnsupported: Rule = {
  id: 'windows.netns.unsupported',
  area: 'windows',
  severity: 'error',
  title: 'The CNI plugin expects dockershim-style netns, but the runtime is containerd',
  firesWhen:
    'the runtime is containerd and the CNI plugin expects dockershim-style netns (`none` / `container:<id>`): Antrea older than v0.13, dockershim-era `win-bridge`/`win-overlay`, or runtime/CNI logs show `unexpected netNS`',
  repair: { kind: 'guidance', text: 'which versions or plugins support containerd' },
  platforms: ['windows'],
  kb: [
    'docs/knowledge/windows-containerd.md#the-case-that-started-it-antrea-loses-to-a-nat-config',
    'docs/knowledge/windows-containerd.md#namespaces-not-dockershim-netns',
    'docs/knowledge/windows-cni-agents.md#antrea',
  ],
  evaluate(ctx) {
    const found = windowsContainerd(ctx);
    if (!isRuntime(found)) return found;
    const rt = found;
    const s = ctx.snapshot;
    const netnsSigs = new Set(
      allSignatures.filter((x) => x.attachesTo === 'windows.netns.unsupported').map((x) => x.id),
    );
    const logHit = s.logs.matches.some((m) => netnsSigs.has(m.signatureId));
    if (!rt.load)
      return logHit
        ? fail(draft('logs show it', []))
        : unknown(`${rt.label}'s CNI conf dir could not be listed`);
    const reasons: string[] = [];
    const evidence: Evidence[] = [];
    // Every valid config counts, not only the one in use: a cluster CNI shadowed today (by a
    // leftover nat config, antrea#1581) is the one that will be used once the shadow is gone.
    for (const f of rt.load.valid) {
      const p = parsed(f);
      if (!p?.ok) continue;
      const types = p.plugins.map((x) => x.type.toLowerCase());
      const old = types.find((t) => DOCKERSHIM_PLUGINS.has(t));
      if (old) {
        reasons.push(`${f.name} uses ${old}, a dockershim-era plugin`);
        evidence.push(confFileEvidence(f));
      }
      if (types.includes('antrea')) {
        const v = s.versions.antrea;
        if (v && compareVersions(v, '0.13.0') < 0) {
          reasons.push(`Antrea ${v} predates containerd support (v0.13.0)`);
          evidence.push(confFileEvidence(f), { kind: 'text', text: `antrea version: ${v}` });
        } else if (!v && !logHit) return unknown('the Antrea version is not known');
      }
    }
    if (logHit) reasons.push('the logs show "unexpected netNS"');
    if (reasons.length === 0) return pass();
    return fail(draft(reasons.join('; '), evidence));

    function draft(why: string, ev: Evidence[]) {
      return {
        severity: 'error' as const,
        runtime: rt.label,
        title: `The CNI plugin cannot handle containerd's network namespaces (${why})`,
        summary: `containerd on Windows creates an HCN namespace and passes its GUID as the netns; plugins written for dockershim expect "none" or "container:<id>" and fail ("Cannot get infra container ID, unexpected netNS: <guid>"), so every pod sandbox fails.`,
        evidence: ev,
        repairs: [],
        guidance:
          'Upgrade Antrea to v0.13 or later (v1.10+ for the DaemonSet on containerd ≥ 1.6), or replace win-bridge/win-overlay with sdnbridge/sdnoverlay (flannel: delegate type sdnoverlay).',
      };
    }
  },
};
