import { defineConfig } from 'vitest/config';

// Unit and integration tests sit next to the code (`*.test.ts`). The real-containerd lab
// (e2e/lab) runs under its own config because it needs root and Debian's containerd.
export default defineConfig({
  test: {
    include: [
      '{app,main,renderer,shared,scripts,fixtures}/**/*.test.{ts,tsx}',
      'bench/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    pool: 'forks',
  },
});
