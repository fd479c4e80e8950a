/** The Overview's picture of the node, and the one finding most likely to explain a stuck pod. */
import type { Finding } from '../../shared/model/finding';
import type { NodeSummary } from '../../shared/model/summary';
import type { Snapshot } from '../../shared/model/snapshot';
import type { Derived } from '../rules/derive';
import { parsed, runtimeVersionOf } from '../rules/derive';
import { topFinding } from './post/rank';

export { topFinding };

export function summarize(s: Snapshot, d: Derived, findings: readonly Finding[]): NodeSummary {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  const top = topFinding(findings);
  const kube = s.kubelet.known ? s.kubelet.value : undefined;
  const main = d.judged[0];
  const inUse = main?.load?.inUse[0];
  const p = inUse ? parsed(inUse, main?.profile.libcni) : undefined;
  return {
    os: s.node.os,
    ...(s.node.hostname !== undefined && { hostname: s.node.hostname }),
    ...(s.node.osVersion !== undefined && { osVersion: s.node.osVersion }),
    runtimes: d.runtimes.map((r) => ({
      name: r.label,
      endpoint: r.endpoint,
      ...(runtimeVersionOf(r) !== undefined && { version: runtimeVersionOf(r) }),
      configPath: r.facts.configPath,
      cniLoader: {
        profile: r.profile.id,
        loader: r.profile.loader,
        assumed: r.profile.runtimeVersion === undefined,
        note: r.profile.note,
      },
    })),
    ...(kube && {
      kubelet: {
        ...(kube.version !== undefined && { version: kube.version }),
        ...(kube.endpoint && { endpoint: kube.endpoint.value }),
        ...(kube.cgroupDriver && { cgroupDriver: kube.cgroupDriver.value }),
      },
    }),
    ...(main?.confDir && {
      cniInUse: {
        runtime: main.label,
        confDir: main.confDir.path,
        ...(inUse && { file: inUse.name }),
        ...(p?.ok && p.network !== undefined && { network: p.network }),
        plugins: p?.ok ? p.plugins.map((x) => x.type) : [],
      },
    }),
    ...(s.cri && {
      criConditions: s.cri.map((c) => {
        const rr = c.status?.conditions.find((x) => x.type === 'RuntimeReady');
        const nr = c.status?.conditions.find((x) => x.type === 'NetworkReady');
        return {
          endpoint: c.endpoint,
          ...(rr && { runtimeReady: rr.status }),
          ...(nr && { networkReady: nr.status }),
          ...((c.error?.message ?? (nr && !nr.status ? nr.message : undefined)) !== undefined && {
            message: c.error?.message ?? nr?.message,
          }),
        };
      }),
    }),
    counts,
    ...(top && { topFindingId: top.id }),
  };
}
