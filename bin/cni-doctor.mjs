#!/usr/bin/env node
// The `cni-doctor` command: runs the bundled CLI built by `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/cli.mjs', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write(
    'cni-doctor: not built yet — run `npm ci && npm run build` in the repository first\n',
  );
  process.exit(2);
}
await import(cli);
