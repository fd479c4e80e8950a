/**
 * Kernel prerequisites of pod networking, from /proc and /sys (kubeadm's preflight checks the
 * same files): br_netfilter loaded, net.bridge.bridge-nf-call-iptables, net.ipv4.ip_forward, and
 * whether IPv6 is disabled. Read through the host, so a collection records them in the bundle
 * and a scan of that bundle reads the same values.
 */
import type { Fact } from '../../shared/model/fact';
import { known, unknownFact } from '../../shared/model/fact';
import type { KernelFacts } from '../../shared/model/snapshot';
import type { ProbeContext } from './context';
import { KERNEL_PATHS } from '../conventions/kernel-paths';

/** The first line of a sysctl file, or null when the file does not exist. */
async function sysctl(ctx: ProbeContext, path: string): Promise<string | null | Error> {
  const r = await ctx.read(path);
  if (r.ok) return r.data.toString('utf8').split('\n')[0]?.trim() ?? '';
  if (r.error === 'ENOENT') return null;
  return new Error(r.message);
}

export async function probeKernel(ctx: ProbeContext): Promise<Fact<KernelFacts>> {
  if (ctx.os !== 'linux') return unknownFact('kernel sysctls exist only on Linux');
  const ipForward = await sysctl(ctx, KERNEL_PATHS.ipForward);
  // Every Linux kernel has ip_forward: without it, /proc was not there to read (a node disk
  // under --root, a bundle from a collector that did not record it).
  if (ipForward === null || ipForward instanceof Error)
    return unknownFact(
      ipForward instanceof Error
        ? ipForward.message
        : `${KERNEL_PATHS.ipForward} was not recorded (no /proc to read)`,
    );
  const nf = await sysctl(ctx, KERNEL_PATHS.bridgeNfCallIptables);
  const mod = await ctx.stat(KERNEL_PATHS.brNetfilterModule);
  const v6dir = await ctx.stat(KERNEL_PATHS.ipv6);
  const v6 = await sysctl(ctx, KERNEL_PATHS.disableIpv6);
  // The bridge sysctls appear only once br_netfilter is loaded (or built in).
  const brNetfilter: KernelFacts['brNetfilter'] =
    (mod.ok && mod.type === 'dir') || typeof nf === 'string'
      ? 'loaded'
      : nf === null && !mod.ok && (mod.error === 'ENOENT' || mod.error === 'UNRECORDED')
        ? 'absent'
        : 'unknown';
  const ipv6Disabled =
    !v6dir.ok && v6dir.error === 'ENOENT' ? true : typeof v6 === 'string' ? v6 === '1' : undefined;
  return known({
    ipForward,
    brNetfilter,
    ...(typeof nf === 'string' && { bridgeNfCallIptables: nf }),
    ...(ipv6Disabled !== undefined && { ipv6Disabled }),
  });
}
