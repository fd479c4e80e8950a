import { describe, expect, it } from 'vitest';
import { formatFigure, parseTimes, runProcess } from './process.bench';

describe('process bench CPU figures', () => {
  it("reads bash's times line (children: user, system) as milliseconds", () => {
    expect(parseTimes('0m0.002s 0m0.000s\n0m0.107s 0m0.020s\n')).toBe(127);
    expect(parseTimes('0m1.5s 1m0.25s')).toBe(61750);
    expect(parseTimes('times: not a number')).toBeUndefined();
  });

  it('count the CPU of the whole process tree, grandchildren included, to the millisecond', async () => {
    // The grandchild burns at least 150 ms of its own CPU time (its own clock, not the wall's).
    const spin =
      'const t = process.cpuUsage(); while (true) { const c = process.cpuUsage(t); if (c.user + c.system >= 150000) break; }';
    const r = await runProcess(['sh', '-c', `${JSON.stringify(process.execPath)} -e '${spin}'`]);
    expect(r.code).toBe(0);
    expect(r.cpuMs).toBeGreaterThanOrEqual(150);
    // Millisecond resolution: GNU time alone gives multiples of 10 ms (four such by chance: 1e-4).
    const runs = [
      r,
      ...(await Promise.all([1, 2, 3].map(() => runProcess([process.execPath, '-e', '0'])))),
    ];
    expect(runs.every((x) => x.cpuMs !== undefined && x.cpuMs % 10 === 0)).toBe(false);
  });
});

describe('a figure line', () => {
  it('judges the ceiling on the wall-clock median and on the CPU min, each said', () => {
    const line = formatFigure({
      name: 'collect',
      floorName: 'tar czf',
      ms: 488,
      floorMs: 391,
      ratio: 488 / 391,
      target: 1.3,
      cpuMs: 760,
      floorCpuMs: 440,
      cpuMinMs: 751,
      floorCpuMinMs: 432,
    });
    expect(line).toContain('(target ≤ 1.3×: wall median 1.25× met, CPU min 1.74× NOT met)');
  });
});
