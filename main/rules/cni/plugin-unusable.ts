/**
 * Plugin capability, asked of the binaries themselves: each plugin the config in use needs is
 * run with CNI_COMMAND=VERSION (no network change). A binary that cannot run (no execute bit,
 * another architecture, a crash) or that does not support the config's cniVersion fails every
 * sandbox at ADD, which containerd only discovers then (docs/knowledge/cni-loading.md).
 */
import type { Evidence } from '../../../shared/model/finding';
import type { FindingDraft, Rule } from '../types';
import { fail, notApplicable, pass, unknown } from '../types';
import { parsed } from '../derive';
import { confFileEvidence } from '../evidence';
import { judgedRuntimes, isOutcome } from './shared';

const WHY: Record<string, string> = {
  'not-executable': 'is not executable',
  'wrong-architecture': 'cannot run here (built for another architecture, or not a program)',
  crashed: 'crashed when asked its version',
  'bad-output': 'did not answer like a CNI plugin',
  timeout: 'did not answer in time',
};

export const cniPluginUnusable: Rule = {
  id: 'cni.plugin.unusable',
  area: 'cni',
  severity: 'error',
  title: 'A CNI plugin the config in use needs cannot run it',
  firesWhen:
    "on a live node (or a bundle that recorded the answers), a plugin binary the config in use names, run with `CNI_COMMAND=VERSION`, is not executable, is for another architecture, crashes, or does not list the config's `cniVersion` among its supported versions",
  repair: {
    kind: 'guidance',
    text: "reinstall the plugins for this node's architecture, or set the config's cniVersion to one they support",
  },
  platforms: ['linux'],
  kb: [
    'docs/knowledge/cni-loading.md#checking-plugin-binaries',
    'docs/knowledge/cni-loading.md#error-strings-from-libcni-and-plugins',
  ],
  evaluate(ctx) {
    const s = ctx.snapshot;
    if (s.node.os !== 'linux') return notApplicable('plugin binaries are asked on Linux nodes');
    const judged = judgedRuntimes(ctx);
    if (isOutcome(judged)) return judged;
    const inUse = judged.flatMap((rt) => (rt.load?.inUse ?? []).map((f) => ({ rt, f })));
    if (inUse.length === 0) return notApplicable('no CNI config is in use');
    if (!s.pluginVersions)
      return unknown(
        'the plugins were not asked (only a live node can run them; this scan or bundle has no answers)',
      );
    const findings: FindingDraft[] = [];
    for (const { rt, f } of inUse) {
      const p = parsed(f);
      if (!p?.ok) continue;
      for (const type of [...new Set(p.plugins.map((x) => x.type))]) {
        const probe = s.pluginVersions.find((x) => x.type === type);
        // A binary absent from every bin dir is cni.plugin.missing's finding.
        if (!probe) continue;
        const a = probe.answer;
        let problem: string | undefined;
        if (!a.ok) problem = `${probe.path} ${WHY[a.problem] ?? a.problem}: ${a.message}`;
        else if (p.cniVersion && !a.supportedVersions.includes(p.cniVersion))
          problem = `${probe.path} supports ${a.supportedVersions.join(', ')}, not ${p.cniVersion}`;
        if (!problem) continue;
        const evidence: Evidence[] = [
          confFileEvidence(f),
          {
            kind: 'text',
            text: `CNI_COMMAND=VERSION ${probe.path}: ${a.ok ? JSON.stringify({ cniVersion: a.cniVersion, supportedVersions: a.supportedVersions }) : `${a.problem} (${a.message})`}`,
          },
        ];
        findings.push({
          key: `${rt.name}:${type}`,
          severity: 'error',
          runtime: rt.label,
          title: `The ${type} plugin ${a.ok ? `does not support cniVersion ${p.cniVersion}` : WHY[a.problem]}`,
          summary: `${rt.label} uses ${f.name}, which needs ${type}. ${problem}. Every pod sandbox fails when ${rt.label} calls it, although the binary is where it should be.`,
          evidence,
          repairs: [],
          guidance: a.ok
            ? `Upgrade the CNI plugins to a release that supports ${p.cniVersion}, or set "cniVersion" in ${f.name} to one of ${a.supportedVersions.join(', ')}.`
            : "Reinstall the plugin from the release for this node's architecture (file(1) shows what the binary is) and make it executable.",
        });
      }
    }
    return findings.length ? fail(...findings) : pass();
  },
};
