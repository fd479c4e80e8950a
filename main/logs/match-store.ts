// Keeps the most recent N matches per signature. Logs are read oldest to newest, and the
// newest occurrences are the ones that describe the node's current state.
import type { LogMatch } from './types';

interface Kept {
  order: number;
  match: LogMatch;
}

export class MatchStore {
  private readonly rings: Kept[][];
  private readonly heads: number[];
  private readonly limit: number;
  private seq = 0;
  dropped = 0;

  constructor(signatureCount: number, limit: number) {
    this.limit = Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : Infinity;
    this.rings = Array.from({ length: signatureCount }, () => []);
    this.heads = new Array<number>(signatureCount).fill(0);
  }

  add(signatureIndex: number, match: LogMatch): void {
    const ring = this.rings[signatureIndex];
    if (ring === undefined) return;
    const kept: Kept = { order: this.seq++, match };
    if (ring.length < this.limit) {
      ring.push(kept);
      return;
    }
    this.dropped++;
    if (this.limit === 0) return;
    // Ring buffer: overwrite the oldest entry.
    const head = this.heads[signatureIndex] as number;
    ring[head] = kept;
    this.heads[signatureIndex] = (head + 1) % ring.length;
  }

  /** All kept matches in file order (line, then the order they were found on that line). */
  matches(): LogMatch[] {
    return this.rings
      .flat()
      .sort((a, b) => a.order - b.order)
      .map((k) => k.match);
  }
}
