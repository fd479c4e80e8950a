/**
 * The order Vitest starts test files in: longest first, so the two workers end together.
 *
 * Vitest orders by each file's duration in its results cache, but a fresh clone (every CI run)
 * has no cache and falls back to file size. The longest files are small ones that start real
 * processes (pwsh, sshd, the built CLI), so they started last: in CI run 9 the unit step took
 * 721 s while its files summed to 1,047 s on two workers, because the 256 s remoting file began
 * near the end. Files named below start first, in this order; every other file keeps Vitest's
 * order after them. The durations are from that run (two CPU hogs beside it), for the order only.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const LONGEST_FIRST: readonly string[] = [
  'main/remote/windows/remoting.pwsh.test.ts', // 256 s: local pwsh, sshd, remote pwsh per test
  'main/host/windows/scripts/pester.test.ts', // 116 s: Pester in pwsh
  'main/repairs/trust.property.test.ts', // 78 s
  'main/repairs/crash.test.ts', // 63 s: kills repair processes midway
  'fixtures/cni-conformance/replay.test.ts', // 50 s
  'fixtures/windows/real-pwsh.test.ts', // 38 s
  'fixtures/hostile.test.ts', // 36 s
  'main/remote/node-files.test.ts', // 31 s
  'app/cli/commands/collect-corpus.test.ts', // 27 s
  'main/host/windows/powershell-session.pwsh.test.ts', // 27 s
];

const rank = (file: string): number => {
  const at = LONGEST_FIRST.findIndex((f) => file === f || file.endsWith(`/${f}`));
  return at === -1 ? LONGEST_FIRST.length : at;
};

/** The named files first, in LONGEST_FIRST's order; the others keep their order after them. */
export function longestFirst<T>(items: readonly T[], fileOf: (item: T) => string): T[] {
  return items
    .map((item, i) => ({ item, i, r: rank(fileOf(item)) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.item);
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return longestFirst(await super.sort(files), (spec) => spec.moduleId);
  }
}
