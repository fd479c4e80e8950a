import type { Rule, FindingDraft, RepairOffer } from '../types';
import { offer } from '../offers';
import { confDirEvidence } from '../evidence';
import { judgeEachRuntime } from './shared';
import { isDefaultConfig } from '../cni-classify';

export const cniConfMultiple: Rule = {
  id: 'cni.conf.multiple',
  area: 'cni',
  severity: 'warning',
  severityWhen: {
    warning: 'two or more of the competing configs are not a runtime default',
    info: 'at most one of them is not a runtime default (the others came with a package)',
  },
  title: 'Several CNI configs compete; the runtime uses fewer than all',
  firesWhen:
    'more than one loadable config exists and the runtime uses fewer than all of them; warning when two or more are not runtime/tool defaults, info otherwise',
  repair: { kind: 'auto', text: 'disable the configs that are not the one in use, on request' },
  platforms: ['linux', 'windows'],
  kb: [
    'docs/knowledge/cni-loading.md#each-runtime-loads-differently',
    'docs/knowledge/cni-loading.md#load-order-on-a-real-node',
    'docs/knowledge/node-layouts.md#conflicts-between-co-installed-stacks',
  ],
  evaluate(ctx) {
    return judgeEachRuntime(ctx, (rt) => {
      const { load } = rt;
      const findings: FindingDraft[] = [];
      if (
        load.loadable.length < 2 ||
        load.inUse.length === 0 ||
        load.inUse.length >= load.loadable.length
      )
        return findings;
      const nonDefault = load.loadable.filter((f) => !isDefaultConfig(f));
      const unused = load.loadable.filter((f) => !load.inUse.includes(f));
      const winner = load.inUse.map((f) => f.name).join(', ');
      // When a default wins over a cluster config, "keep what is in use" would disable the
      // cluster CNI: that is cni.conf.shadowed-by-default's case, repaired the other way round.
      const shadowed = load.inUse.every(isDefaultConfig) && unused.some((f) => !isDefaultConfig(f));
      const repairs: RepairOffer[] = shadowed
        ? []
        : [
            offer(
              'disable-files',
              `Disable the ${unused.length} config(s) not in use (keep ${winner})`,
              { paths: unused.map((f) => f.path) },
            ),
          ];
      findings.push({
        key: rt.name,
        severity: nonDefault.length >= 2 ? 'warning' : 'info',
        runtime: rt.label,
        title: `${load.loadable.length} CNI configs in ${rt.confDir.path}; ${rt.label} uses ${winner}`,
        summary: `${rt.label} uses ${rt.name === 'crio' ? 'one default network' : `the first ${load.inUse.length} valid file(s) in byte-wise order`} and ignores the rest (${unused.map((f) => f.name).join(', ')}). A leftover config from a previous CNI can win after a rename or an upgrade, and confuses anyone reading the directory.`,
        evidence: [confDirEvidence(rt)!],
        repairs,
        ...(shadowed && {
          guidance: `${winner} is a runtime default that wins over the cluster config; see cni.conf.shadowed-by-default rather than disabling the configs not in use.`,
        }),
      });
      return findings;
    });
  },
};
