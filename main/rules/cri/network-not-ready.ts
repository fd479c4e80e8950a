import { accessDeniedReason, isAccessDenied } from '../../conventions/access-denied';
import type { Rule, FindingDraft } from '../types';
import { fail, notApplicable, pass, unknown } from '../types';
import { endpointKey } from '../../conventions/endpoint';
import type { Evidence } from '../../../shared/model/finding';
import type { CriEntry } from '../../../shared/model/cri';
import type { RuntimeView } from '../derive';
import { noJudgedRuntimeReason, parsed } from '../derive';

/** Networks containerd has loaded, from the verbose `cniconfig` (docs/knowledge/containerd.md#reading-the-effective-configuration). */
export function loadedNetworks(cri: CriEntry): { confDir?: string; names: string[] } | undefined {
  const raw = cri.status?.info.cniconfig;
  if (!raw) return undefined;
  try {
    const doc = JSON.parse(raw) as {
      PluginConfDir?: string;
      Networks?: { Config?: { Name?: string } }[];
    };
    const names = (doc.Networks ?? [])
      .map((n) => n.Config?.Name ?? '')
      .filter((n) => n !== '' && n !== 'cni-loopback');
    return { ...(doc.PluginConfDir !== undefined && { confDir: doc.PluginConfDir }), names };
  } catch {
    return undefined;
  }
}

/** When containerd's loaded view and the files on disk disagree, a sentence that says so. */
export function staleViewNote(rt: RuntimeView): string | undefined {
  if (!rt.cri || !rt.load) return undefined;
  const loaded = loadedNetworks(rt.cri);
  if (!loaded) return undefined;
  const onDisk = rt.load.inUse.map((f) => (parsed(f) as { network?: string }).network ?? f.name);
  const same =
    loaded.names.length === onDisk.length && loaded.names.every((n, i) => n === onDisk[i]);
  if (same) return undefined;
  return `${rt.label} has loaded ${loaded.names.length ? loaded.names.map((n) => `"${n}"`).join(', ') : 'no network'}, but the files on disk now give ${onDisk.length ? onDisk.map((n) => `"${n}"`).join(', ') : 'no valid network'}. containerd reloads only on write/rename/remove events in its conf dir and ignores files created or moved in from elsewhere, so its view can be stale: restart it (or touch the config) after fixing the files.`;
}

export const criNetworkNotReady: Rule = {
  id: 'cri.network.not-ready',
  area: 'cri',
  severity: 'error',
  title: 'The runtime reports NetworkReady=false',
  firesWhen:
    "the runtime reports `NetworkReady=false`; the finding quotes the runtime's message and `lastCNILoadStatus` and names the other findings that explain it",
  repair: {
    kind: 'none',
    text: 'none of its own: the CNI finding that explains it carries the repair',
  },
  platforms: ['linux', 'windows'],
  kb: [
    'docs/knowledge/cni-loading.md#how-containerds-cri-uses-the-loader',
    'docs/knowledge/containerd.md#reading-the-effective-configuration',
    'docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from',
  ],
  evaluate(ctx) {
    const s = ctx.snapshot;
    const judged = ctx.derived.judged;
    if (!s.cri) return unknown(s.criUnknown ?? 'the runtimes were not asked over CRI');
    const findings: FindingDraft[] = [];
    let asked = 0;
    for (const rt of judged) {
      const cri = rt.cri;
      if (!cri?.status) continue;
      asked++;
      const cond = cri.status.conditions.find((c) => c.type === 'NetworkReady');
      if (!cond || cond.status) continue;
      const last =
        cri.status.info['lastCNILoadStatus'] ?? cri.status.info['lastCNILoadStatus.default'];
      const evidence: Evidence[] = [
        {
          kind: 'cri',
          endpoint: cri.endpoint,
          field: 'NetworkReady',
          value: `false (${cond.reason}): ${cond.message}`,
        },
      ];
      if (last)
        evidence.push({
          kind: 'cri',
          endpoint: cri.endpoint,
          field: 'lastCNILoadStatus',
          value: last,
        });
      const note = staleViewNote(rt);
      if (note) evidence.push({ kind: 'text', text: note });
      findings.push({
        key: rt.name,
        severity: 'error',
        runtime: rt.label,
        title: `${rt.label} reports the pod network as not ready`,
        summary: `${rt.label} says: "${cond.message}". The node stays NotReady and every new pod fails sandbox creation until a valid CNI config loads.${last && last !== 'OK' ? ` Its last CNI load: ${last}` : ''}`,
        evidence,
        repairs: [],
        explainedBy: [
          'cni.conf.none',
          'cni.conf.invalid',
          'cni.dir.mismatch',
          'cni.version.unsupported',
          'cni.conf.shadowed-by-default',
          'cni.plugin.missing',
          'crio.network.default-missing',
          'cri.cni.not-reloaded',
        ],
      });
    }
    if (asked === 0) {
      if (judged.length === 0) return notApplicable(noJudgedRuntimeReason(s, ctx.derived));
      // A runtime whose socket is absent or that does not answer is another rule's finding.
      const silent = judged.filter((rt) => !rt.cri);
      if (
        silent.length === judged.length &&
        judged.every((rt) =>
          s.endpoints.some(
            (e) => endpointKey(e.endpoint) === endpointKey(rt.endpoint) && e.state === 'missing',
          ),
        )
      ) {
        return notApplicable(
          `${judged.map((r) => r.label).join(', ')} is not listening (no socket), so it reports no network status`,
        );
      }
      const denied = judged.filter((rt) => isAccessDenied(rt.cri?.error?.message));
      if (denied.length)
        return unknown(accessDeniedReason(denied.map((rt) => rt.endpoint).join(', '), s.node.os));
      return unknown('no judged runtime answered CRI Status');
    }
    return findings.length ? fail(...findings) : pass();
  },
};
