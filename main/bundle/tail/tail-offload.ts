/**
 * Runs TailJobs on a worker thread (tail-worker.ts), one after another, so a log tail is read,
 * redacted and compressed on the second core while the main thread reads everything else.
 * Anything that goes wrong with the worker (it cannot start, it dies) makes a job come back
 * `handled: false`: the caller then records that tail itself, as it always could.
 */
import { Worker } from 'node:worker_threads';
import type { TailJob, TailOutcome } from './tail-job';

export class TailOffload {
  private readonly worker: Worker;
  private queue: Promise<unknown> = Promise.resolve();
  private broken: string | undefined;

  /** `script`: the built dist/tail-worker.cjs. The worker starts now, to be ready when needed. */
  constructor(script: string) {
    this.worker = new Worker(script);
    this.worker.on('error', (e) => {
      this.broken = e.message;
    });
    this.worker.unref();
  }

  run(job: TailJob): Promise<TailOutcome> {
    const next = this.queue.then(() => this.once(job));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private once(job: TailJob): Promise<TailOutcome> {
    if (this.broken) return Promise.resolve({ handled: false, why: this.broken });
    return new Promise((resolve) => {
      const settle = (out: TailOutcome): void => {
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
        this.worker.off('exit', onExit);
        resolve(out);
      };
      const onMessage = (out: TailOutcome): void => settle(out);
      const onError = (e: Error): void =>
        settle({ handled: false, why: `the tail worker failed: ${e.message}` });
      const onExit = (code: number): void =>
        settle({ handled: false, why: `the tail worker exited (${code})` });
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      this.worker.on('exit', onExit);
      this.worker.ref(); // a job in flight keeps the process alive until it answers
      this.worker.postMessage(job);
    }).finally(() => this.worker.unref()) as Promise<TailOutcome>;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
