/**
 * A limit on how many of one kind of heavy job (bundle uploads, scans) run at once in `serve`.
 * Jobs over the limit wait their turn; past the queue's length they are refused at once with
 * 503, so a burst of uploads costs bounded memory and CPU instead of all of it.
 */
import { ApiError } from './errors';

export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly what: string,
    private readonly maxRunning: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active >= this.maxRunning) {
      if (this.waiting.length >= this.maxWaiting)
        throw new ApiError('unavailable', `too many ${this.what} at once; try again shortly`);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await job();
    } finally {
      // Hand the slot straight to the next waiter (active stays the same), or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
