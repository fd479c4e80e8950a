/**
 * The runtime has not reloaded: containerd's loaded CNI networks (CRI Status verbose `cniconfig`)
 * differ from what the files on disk give. containerd reloads only on Write/Rename/Remove events
 * in its conf dir and ignores Create/Chmod, so a config copied or moved in (ansible copy,
 * containerd#11715) is on disk but not in use until a restart (docs/knowledge/cni-loading.md#how-containerds-cri-uses-the-loader, docs/knowledge/containerd.md#reading-the-effective-configuration).
 */
import type { Evidence } from '../../../shared/model/finding';
import type { ContainerdFacts } from '../../../shared/model/snapshot';
import type { FindingDraft, Rule } from '../types';
import { fail, notApplicable, pass, unknown } from '../types';
import { offer } from '../offers';
import { parsed } from '../derive';
import { confDirEvidence } from '../evidence';
import { judgedRuntimes, isOutcome } from '../cni/shared';
import { loadedNetworks } from './network-not-ready';

const quote = (names: readonly string[]): string =>
  names.length ? names.map((n) => `"${n}"`).join(', ') : 'no network';

export const criCniNotReloaded: Rule = {
  id: 'cri.cni.not-reloaded',
  area: 'cri',
  severity: 'error',
  severityWhen: {
    error: 'the runtime reports NetworkReady false',
    warning: 'NetworkReady is not false, but the runtime still uses an older config',
  },
  title: 'The runtime has not reloaded its CNI config',
  firesWhen:
    'the networks containerd reports as loaded (CRI Status `cniconfig`) differ from the network(s) the files in its conf dir give now',
  repair: {
    kind: 'auto',
    text: 'restart containerd (its reload ignores files created or moved in)',
  },
  platforms: ['linux', 'windows'],
  kb: [
    'docs/knowledge/cni-loading.md#how-containerds-cri-uses-the-loader',
    'docs/knowledge/containerd.md#reading-the-effective-configuration',
    'https://github.com/containerd/containerd/issues/11715',
  ],
  evaluate(ctx) {
    const judged = judgedRuntimes(ctx);
    if (isOutcome(judged)) return judged;
    const containerds = judged.filter((rt) => rt.name === 'containerd');
    if (containerds.length === 0)
      return notApplicable(
        'CRI-O reloads on every change in its conf dir and does not report its loaded networks',
      );
    if (!ctx.snapshot.cri) return unknown('the runtime was not asked over CRI');
    const findings: FindingDraft[] = [];
    for (const rt of containerds) {
      if (!rt.cri?.status) return unknown(`${rt.label} did not answer CRI Status`);
      const loaded = loadedNetworks(rt.cri);
      if (!loaded)
        return unknown(`${rt.label}'s CRI Status carries no cniconfig (not asked verbosely)`);
      const load = rt.load;
      if (!load) return unknown(`${rt.label}'s conf dir could not be listed`);
      const onDisk = load.inUse.map((f) => {
        const p = parsed(f);
        return (p?.ok ? p.network : undefined) ?? f.name;
      });
      const flavor = (rt.facts as ContainerdFacts).flavor;
      const same =
        loaded.names.length === onDisk.length && loaded.names.every((n, i) => n === onDisk[i]);
      if (same) continue;
      const dir = confDirEvidence(rt, `what ${rt.label} would load now`);
      const evidence: Evidence[] = [
        {
          kind: 'cri',
          endpoint: rt.cri.endpoint,
          field: 'cniconfig (networks loaded)',
          value: quote(loaded.names),
        },
        ...(dir ? [dir] : []),
        {
          kind: 'text',
          text: `containerd reloads its conf dir on write, rename and remove events only; a file created or moved in (a copy from elsewhere, ansible's copy module) is not picked up until containerd restarts.`,
        },
      ];
      // With NetworkReady=false the stale view is why pods fail now, not only a surprise later.
      const notReady = rt.cri.status.conditions.some((c) => c.type === 'NetworkReady' && !c.status);
      findings.push({
        key: rt.name,
        severity: notReady ? 'error' : 'warning',
        runtime: rt.label,
        title: `${rt.label} still runs with ${quote(loaded.names)}; the files give ${quote(onDisk)}`,
        summary: `${rt.label} has loaded ${quote(loaded.names)}, but its conf dir now gives ${quote(onDisk)}. Pods get what is loaded, not what is on disk, until ${rt.label} reloads; it ignores files that were only created or moved in, so restart it (or rewrite the file in place).`,
        evidence,
        repairs:
          flavor === 'containerd'
            ? [
                offer('restart-service', `Restart ${rt.label} so it loads the files on disk`, {
                  service: 'containerd',
                }),
              ]
            : [],
        ...(flavor !== 'containerd' && {
          guidance: `Restart ${flavor} (its embedded containerd reloads with it).`,
        }),
      });
    }
    return findings.length ? fail(...findings) : pass();
  },
};
