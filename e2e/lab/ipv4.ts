// IPv4 CIDR membership, for asserting which network handed out a pod's address.
export function inSubnet(ip: string, cidr: string): boolean {
  const [net, bits] = cidr.split('/');
  const a = toInt(ip);
  const b = toInt(net ?? '');
  const len = Number(bits);
  if (a === null || b === null || !Number.isInteger(len) || len < 0 || len > 32) return false;
  const mask = len === 0 ? 0 : (~0 << (32 - len)) >>> 0;
  return (a & mask) >>> 0 === (b & mask) >>> 0;
}

function toInt(ip: string): number | null {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((n) => !Number.isInteger(n) || n < 0 || n > 255))
    return null;
  return parts.reduce((acc, n) => acc * 256 + n, 0);
}
