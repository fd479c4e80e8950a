import { describe, expect, it } from 'vitest';
import { runLogScanBench } from './logscan.bench';

// Not a timing test: a small run of the benchmark checks that the scanner and grep -E agree on
// realistic data (and that the generator's error lines are exactly the matching ones).
describe('log-scan benchmark harness', () => {
  it('scanner and grep find the same matching lines on a small synthetic log', async () => {
    const r = await runLogScanBench({ sizeMB: 3, runs: 1 });
    expect(r.errorLines).toBeGreaterThan(0);
    expect(r.scanner.matchingLines).toBe(r.errorLines);
    if (r.grep !== undefined) expect(r.grep.matchingLines).toBe(r.errorLines);
  });
});
