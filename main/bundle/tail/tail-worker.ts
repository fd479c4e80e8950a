/**
 * The worker thread behind TailOffload: runs each TailJob it is sent and answers with its
 * outcome. Built on its own as dist/tail-worker.cjs (scripts/build.mjs), small enough to start
 * while the main thread is still reading the node's configs.
 */
import { parentPort } from 'node:worker_threads';
import { runTailJob, type TailJob, type TailOutcome } from './tail-job';

parentPort?.on('message', (job: TailJob) => {
  let out: TailOutcome;
  try {
    out = runTailJob(job);
  } catch (e) {
    out = { handled: false, why: `the tail worker failed: ${(e as Error).message}` };
  }
  parentPort?.postMessage(out);
});
