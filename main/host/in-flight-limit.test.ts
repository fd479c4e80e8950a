import { describe, expect, it } from 'vitest';
import { InFlightLimit } from './in-flight-limit';

describe('InFlightLimit', () => {
  it('runs at most max calls at once, every call, in order, failures included', async () => {
    const limit = new InFlightLimit(3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        limit.run(async () => {
          started.push(i);
          running++;
          most = Math.max(most, running);
          await new Promise((r) => setTimeout(r, 1 + (i % 3)));
          running--;
          if (i === 5) throw new Error('five');
          return i;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : -1))[19]).toBe(19);
  });
});
