/** Content hashes: what a plan expects a file to hold, and what a step left behind. */
import { createHash } from 'node:crypto';

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Hash of a directory listing: names sorted byte-wise, NUL-separated (order-independent). */
export function listingSha256(names: readonly string[]): string {
  const sorted = [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return sha256(sorted.join('\0'));
}
