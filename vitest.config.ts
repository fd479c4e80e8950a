import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './scripts/vitest-sequencer';

// Unit and integration tests sit next to the code (`*.test.ts`). The real-containerd lab
// (e2e/lab) runs under its own config because it needs root and Debian's containerd.
export default defineConfig({
  test: {
    include: [
      '{app,main,renderer,shared,scripts,fixtures}/**/*.test.{ts,tsx}',
      'bench/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', 'dist/**'],
    // Ceilings for a hung test, far above the normal case: CI runs on a loaded 2-core machine,
    // where a test that takes 10 s alone can take ten times that. Speed is measured in bench/.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Vitest's default is one worker per core but one: a single worker on a 2-core machine, where
    // every file waited for the one before. Most of the long files wait on child processes (pwsh,
    // sshd, the built CLI): `npm test`'s unit step used 195 s of CPU in 627 s on two workers, so
    // one worker more than cores.
    maxWorkers: availableParallelism() + 1,
    // A fresh clone has no durations cached: start the long files first (scripts/vitest-sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
  },
});
