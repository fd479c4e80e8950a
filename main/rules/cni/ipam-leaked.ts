/**
 * host-local IPAM state vs the sandboxes the runtime lists: a reservation whose container ID
 * belongs to no sandbox is leaked (reboots, runtime swaps, a sandbox removed while no CNI config
 * was loaded); enough of them fill the range and new pods get "no IP addresses available in
 * range set". Found from the state itself, not only from that log line.
 */
import type { Evidence } from '../../../shared/model/finding';
import type { Rule } from '../types';
import { fail, notApplicable, pass, unknown } from '../types';
import { parsed } from '../derive';
import { judgedRuntimes, isOutcome } from './shared';

const MAX_LISTED = 10;

/** Addresses host-local can hand out in an IPv4 subnet (minus network, broadcast, gateway). */
export function ipv4Capacity(subnet: string | undefined): number | undefined {
  const m = /^\d{1,3}(\.\d{1,3}){3}\/(\d{1,2})$/.exec(subnet ?? '');
  if (!m) return undefined;
  const prefix = Number(m[2]);
  if (prefix < 8 || prefix > 30) return undefined;
  return 2 ** (32 - prefix) - 3;
}

export const cniIpamLeaked: Rule = {
  id: 'cni.ipam.leaked',
  area: 'cni',
  severity: 'error',
  severityWhen: {
    error: 'the leaked addresses fill the range: new pods get no address',
    warning: 'addresses leak but the range still has room',
  },
  title: 'host-local holds addresses for sandboxes that no longer exist',
  firesWhen:
    'a reservation file under /var/lib/cni/networks/<network> (host-local IPAM, also behind flannel) names a container ID that none of the sandboxes the runtime lists over CRI has; error when the reservations fill the subnet',
  repair: {
    kind: 'guidance',
    text: 'drain the node, remove the reservation files of the listed leaked IDs only, restart the runtime',
  },
  platforms: ['linux'],
  kb: [
    'docs/knowledge/node-layouts.md#what-each-repair-does-to-a-running-node',
    'https://github.com/kubernetes/kubernetes/issues/57280',
  ],
  evaluate(ctx) {
    const s = ctx.snapshot;
    if (s.node.os !== 'linux') return notApplicable('host-local state is read on Linux nodes');
    const judged = judgedRuntimes(ctx);
    if (isOutcome(judged)) return judged;
    const networks = new Map<string, string | undefined>();
    for (const rt of judged)
      for (const f of rt.load?.inUse ?? []) {
        const p = parsed(f);
        if (!p?.ok || !p.network) continue;
        const hl = p.plugins.find((x) => x.type === 'host-local');
        if (hl || p.plugins.some((x) => x.type === 'flannel'))
          networks.set(p.network, p.plugins.find((x) => x.subnet !== undefined)?.subnet);
      }
    if (networks.size === 0)
      return notApplicable('the config in use does not hand out addresses with host-local');
    if (!s.ipam) return unknown('the host-local state (/var/lib/cni/networks) was not recorded');
    const sandboxes = judged.map((rt) => rt.cri?.sandboxes);
    if (!s.cri || sandboxes.some((x) => x === undefined))
      return unknown('the runtime did not list its sandboxes over CRI');
    const live = new Set(sandboxes.flatMap((x) => (x ?? []).map((b) => b.id)));
    const findings = [];
    for (const [network, subnet] of networks) {
      const state = s.ipam.find((x) => x.network === network);
      if (!state) return unknown(`the host-local state of "${network}" was not recorded`);
      if (!state.reservations.known) return unknown(state.reservations.reason);
      const all = state.reservations.value;
      const leaked = all.filter((r) => !live.has(r.containerId));
      if (leaked.length === 0) continue;
      const capacity = ipv4Capacity(subnet);
      const full = capacity !== undefined && all.length >= capacity;
      const evidence: Evidence[] = [
        {
          kind: 'text',
          text: `${all.length} reservation(s) in ${state.dir}; the runtime lists ${live.size} sandbox(es); ${leaked.length} reservation(s) belong to none of them${capacity !== undefined ? `; ${subnet} has room for ${capacity}` : ''}`,
        },
        ...leaked.slice(0, MAX_LISTED).map((r): Evidence => ({
          kind: 'path',
          path: `${state.dir}/${r.ip}`,
          state: 'leaked',
          note: `container ${r.containerId.slice(0, 12) || '(empty)'} is not a sandbox the runtime knows`,
        })),
      ];
      if (leaked.length > MAX_LISTED)
        evidence.push({ kind: 'text', text: `${leaked.length - MAX_LISTED} more leaked file(s)` });
      findings.push({
        key: network,
        severity: full ? ('error' as const) : ('warning' as const),
        title: full
          ? `The "${network}" range is full: ${leaked.length} of ${all.length} addresses are held by sandboxes that no longer exist`
          : `${leaked.length} address(es) of "${network}" are held by sandboxes that no longer exist`,
        summary: `host-local keeps one file per address it handed out and frees it only when the sandbox's network is torn down. ${leaked.length} of these files name containers the runtime no longer has (a reboot, a runtime swap, or a teardown that failed), so their addresses are never reused.${full ? ' Together they fill the range: new pods fail with "no IP addresses available in range set".' : ' If they keep piling up, new pods will get no address.'}`,
        evidence,
        repairs: [],
        guidance: `Drain the node, then remove only the listed files (never the whole directory: live pods keep their addresses there) and restart the runtime.`,
      });
    }
    return findings.length ? fail(...findings) : pass();
  },
};
