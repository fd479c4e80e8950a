import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The real-containerd lab: root only, one file and one test at a time (scenarios share the
// host's network namespace and cgroup tree), generous timeouts for containerd and runc.
// Run: npx vitest run --config e2e/lab/vitest.lab.config.ts
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['e2e/lab/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
