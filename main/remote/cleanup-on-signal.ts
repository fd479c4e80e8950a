/**
 * What must be undone on the cluster if the doctor is interrupted: a debug pod left behind by a
 * Ctrl+C or a `kill` keeps a privileged, host-root pod on the node until its deadline. Each
 * transport that created something registers its dispose() here while it holds it; SIGINT and
 * SIGTERM run every registered cleanup (bounded in time) before the process ends.
 *
 * SIGKILL cannot be caught: for that the debug pod carries activeDeadlineSeconds, and the next
 * kubectl run from this machine sweeps the pods whose owner process is gone (kubectl-sweep.ts).
 */
type Cleanup = () => Promise<void>;

const pending = new Set<Cleanup>();
let installed = false;
/** How long an interrupted process waits for its cleanups (a `kubectl delete` each). */
export const CLEANUP_DEADLINE_MS = 20_000;

const EXIT_CODE: Record<'SIGINT' | 'SIGTERM', number> = { SIGINT: 130, SIGTERM: 143 };

/** Runs every registered cleanup once, in parallel, within the deadline. */
export async function runCleanups(deadlineMs = CLEANUP_DEADLINE_MS): Promise<void> {
  const all = [...pending];
  pending.clear();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(all.map((c) => c())),
    new Promise<void>((r) => {
      timer = setTimeout(r, deadlineMs);
    }),
  ]);
  clearTimeout(timer);
}

function onSignal(sig: 'SIGINT' | 'SIGTERM'): void {
  void runCleanups().then(() => {
    // Another listener (serve's own shutdown) decides how the process ends; alone, we end it
    // the way the signal would have.
    if (process.listenerCount(sig) <= 1) process.exit(EXIT_CODE[sig]);
  });
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
}

/** Registers a cleanup until the returned function is called (when it has been done normally). */
export function cleanupOnSignal(c: Cleanup): () => void {
  install();
  pending.add(c);
  return () => {
    pending.delete(c);
  };
}

/** How many cleanups are registered (tests). */
export function pendingCleanups(): number {
  return pending.size;
}
