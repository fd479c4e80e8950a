/** IPv4 prefixes as a NAT network needs them: well-formed, aligned, gateway inside, no overlap. */
import { IPV4, IPV4_PREFIX } from '../../host/windows/repair-step-input';

export interface Prefix {
  base: number;
  bits: number;
}

export function ipv4ToInt(ip: string): number | undefined {
  if (!IPV4.test(ip)) return undefined;
  return ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
}

export function parsePrefix(cidr: string): Prefix | undefined {
  if (!IPV4_PREFIX.test(cidr)) return undefined;
  const [ip, bits] = cidr.split('/') as [string, string];
  return { base: ipv4ToInt(ip) as number, bits: Number(bits) };
}

const size = (p: Prefix): number => 2 ** (32 - p.bits);

/** The prefix's address has no bits set beyond its length (10.0.0.0/8, not 10.1.0.0/8). */
export function aligned(p: Prefix): boolean {
  return p.base % size(p) === 0;
}

export function contains(p: Prefix, ip: number): boolean {
  return ip >= p.base && ip < p.base + size(p);
}

export function overlaps(a: Prefix, b: Prefix): boolean {
  return a.base < b.base + size(b) && b.base < a.base + size(a);
}
