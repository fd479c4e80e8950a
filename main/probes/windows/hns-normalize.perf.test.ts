/**
 * The normaliser must keep up with big clusters (KB windows §9): 5,000 endpoints and 20,000 policy
 * lists in well under 100 ms. Best of several runs, so a busy CI machine does not make it flaky.
 */
import { describe, expect, it } from 'vitest';
import { normalizeHns } from './hns-normalize';
import { largeHns } from './testing/large-hns';

describe('normalizeHns at scale', () => {
  it('normalises 5,000 endpoints + 20,000 policy lists (+1,667 namespaces) in well under 100 ms', () => {
    const input = largeHns(5000, 20_000);
    normalizeHns(input); // warm-up
    const times: number[] = [];
    let last = normalizeHns(input);
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      last = normalizeHns(input);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const best = times[0] ?? Infinity;
    const median = times[Math.floor(times.length / 2)] ?? Infinity;
    console.log(`normalizeHns 5k endpoints + 20k policy lists: best ${best.toFixed(1)} ms, median ${median.toFixed(1)} ms`);
    expect(last.endpoints).toHaveLength(5000);
    expect(last.policyLists).toHaveLength(20_000);
    expect(last.policyLists[0]?.endpoints).toHaveLength(3);
    expect(last.endpoints.filter((e) => e.namespaceId !== undefined)).toHaveLength(1667);
    expect(best).toBeLessThan(100);
  });
});
