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

  /** `signal`: a job still waiting for its turn when it aborts leaves the queue, never runs. */
  async run<T>(job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw cancelled(this.what);
    if (this.active >= this.maxRunning) {
      if (this.waiting.length >= this.maxWaiting)
        throw new ApiError('unavailable', `too many ${this.what} at once; try again shortly`);
      await new Promise<void>((resolve, reject) => {
        const turn = (): void => {
          signal?.removeEventListener('abort', leave);
          resolve();
        };
        const leave = (): void => {
          const i = this.waiting.indexOf(turn);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(cancelled(this.what));
        };
        signal?.addEventListener('abort', leave, { once: true });
        this.waiting.push(turn);
      });
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

function cancelled(what: string): ApiError {
  return new ApiError('unavailable', `cancelled: nobody waits for these ${what} any more`);
}
