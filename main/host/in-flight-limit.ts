/**
 * At most `max` calls running at once; the rest wait in order. A probe asks for every entry of a
 * folder at once (2,000 conflists: 2,000 open files, stat objects and buffers alive together);
 * through a limit the disk stays just as busy and far less is alive at a time.
 */
export class InFlightLimit {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(max: number) {
    this.free = Math.max(1, max);
  }

  async run<T>(call: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await call();
    } finally {
      // The slot passes straight to the next caller, or back to the pool.
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
