import { describe, expect, it } from 'vitest';
import { Gate } from './gate';

describe('Gate', () => {
  it('runs at most maxRunning jobs at once, queues the next, refuses past the queue', async () => {
    const gate = new Gate('uploads', 2, 1);
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const job = (): Promise<void> =>
      gate.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((r) => releases.push(r));
        running--;
      });
    const a = job();
    const b = job();
    const c = job(); // waits
    await expect(job()).rejects.toMatchObject({ code: 'unavailable' });
    await Promise.resolve();
    expect(releases).toHaveLength(2);
    releases.shift()?.();
    await a;
    await new Promise((r) => setImmediate(r));
    expect(releases).toHaveLength(2); // c got the freed slot
    releases.splice(0).forEach((r) => r());
    await Promise.all([b, c]);
    expect(peak).toBe(2);
    // Free again: a new job runs at once.
    const d = job();
    await new Promise((r) => setImmediate(r));
    expect(releases).toHaveLength(1);
    releases[0]?.();
    await d;
  });

  it('drops a waiting job whose caller has gone: it never runs and frees its queue place', async () => {
    const gate = new Gate('scans', 1, 1);
    let release = (): void => undefined;
    const a = gate.run(() => new Promise<void>((r) => (release = r)));
    const gone = new AbortController();
    let ran = false;
    const b = gate.run(async () => {
      ran = true;
    }, gone.signal);
    gone.abort();
    await expect(b).rejects.toMatchObject({ code: 'unavailable' });
    // Its queue place is free again, and the slot goes to the next caller.
    const c = gate.run(async () => 'c');
    release();
    await a;
    expect(await c).toBe('c');
    expect(ran).toBe(false);
  });
});
