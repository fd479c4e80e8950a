import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The real-containerd lab: root only, one file and one test at a time (scenarios share the
// host's network namespace and cgroup tree), generous timeouts for containerd and runc.
// Ceilings far above the normal case, as in the unit tests' config: the longest lab test (a
// repair in a node container, a real pod started before and after) takes ~55 s on a quiet
// 2-core machine and took 71 s in a CI run beside two CPU hogs, over half of the 120 s it had.
// Run: npx vitest run --config e2e/lab/vitest.lab.config.ts
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['e2e/lab/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
