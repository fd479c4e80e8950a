/**
 * Waits for a condition in a test: checked every `intervalMs` until it holds, for at most
 * `timeoutMs` — far above the normal case, so a loaded machine only makes the wait longer, never
 * red. On timeout it fails with what it waited for (and the last error the check threw).
 */
export async function until(
  cond: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 20_000, intervalMs = 10 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      if (await cond()) return;
      last = undefined;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= end) break;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  const why = last instanceof Error ? ` (last check threw: ${last.message})` : '';
  throw new Error(`still waiting, after ${timeoutMs} ms, for ${what}${why}`);
}
