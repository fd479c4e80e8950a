/**
 * host-local IPAM state: one file per reserved address under /var/lib/cni/networks/<network>,
 * named by the IP and holding the container ID (then, since CNI plugins v0.8, "\r\n" and the
 * interface name), beside `last_reserved_ip.<range>` and `lock`. Read for every network a config
 * in the runtimes' conf dirs gives to host-local (flannel delegates to it), so the rules can
 * compare reservations with the sandboxes the runtime lists.
 */
import { known, unknownFact } from '../../shared/model/fact';
import type { CniConfDir, IpamState } from '../../shared/model/snapshot';
import { joinNode } from '../host/paths';
import type { ProbeContext } from './context';

export const HOST_LOCAL_DIR = '/var/lib/cni/networks';
/** A reservation file's name: an IPv4 or IPv6 address. */
const IP_NAME = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-fA-F:]+:[0-9a-fA-F:]*)$/;
const MAX_FILES = 4096;

type Reservation = { ip: string; containerId: string };

/** Networks whose addresses host-local hands out, by network name. */
export function hostLocalNetworks(dirs: readonly CniConfDir[]): string[] {
  const out = new Set<string>();
  for (const d of dirs) {
    if (!d.entries.known) continue;
    for (const f of d.entries.value) {
      const p = f.parse?.known ? f.parse.value : undefined;
      if (!p?.ok || !p.network || !f.loadable) continue;
      if (p.plugins.some((x) => x.type === 'host-local' || x.type === 'flannel'))
        out.add(p.network);
    }
  }
  return [...out].filter((n) => /^[A-Za-z0-9._-]+$/.test(n));
}

async function readState(ctx: ProbeContext, network: string): Promise<IpamState['reservations']> {
  const dir = joinNode('linux', HOST_LOCAL_DIR, network);
  const listing = await ctx.list(dir);
  if (!listing.ok) return listing.error === 'ENOENT' ? known([]) : unknownFact(listing.message);
  const out: Reservation[] = [];
  for (const name of listing.entries.filter((n) => IP_NAME.test(n)).slice(0, MAX_FILES)) {
    const r = await ctx.read(joinNode('linux', dir, name));
    if (!r.ok) return unknownFact(r.message);
    const containerId = r.data.toString('utf8').split(/\r?\n/)[0]?.trim() ?? '';
    out.push({ ip: name, containerId });
  }
  return known(out);
}

export async function probeIpam(
  ctx: ProbeContext,
  dirs: readonly CniConfDir[],
): Promise<IpamState[]> {
  if (ctx.os !== 'linux') return [];
  const networks = hostLocalNetworks(dirs);
  if (networks.length === 0) return [];
  // One listing of the state dir answers "no reservations" for every network that has no folder
  // in it: a node with 2,000 configs and no host-local state costs one call, not 2,000. Where the
  // listing itself cannot be had (a bundle that recorded only the networks' folders), each
  // network is asked on its own, as before.
  const top = await ctx.list(HOST_LOCAL_DIR);
  const present = top.ok ? new Set(top.entries) : undefined;
  const none = top.ok || top.error === 'ENOENT';
  return Promise.all(
    networks.map(async (network) => ({
      network,
      dir: joinNode('linux', HOST_LOCAL_DIR, network),
      reservations:
        none && !present?.has(network) ? known<Reservation[]>([]) : await readState(ctx, network),
    })),
  );
}
