/**
 * Where the built log-tail worker is (dist/tail-worker.cjs, beside the CLI bundle), or undefined
 * when the CLI runs from source (tests, tsx): collect then records tails on its main thread.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export function builtTailWorker(): string | undefined {
  // The bundle runs as CommonJS with dist/ as __dirname (app/cli/launch/code-cache.ts).
  if (typeof __dirname !== 'string') return undefined;
  const script = join(__dirname, 'tail-worker.cjs');
  return existsSync(script) ? script : undefined;
}
