#!/usr/bin/env node
// The `cni-doctor` command: runs the bundled CLI built by `npm run build` (dist/cli.cjs), with a
// V8 code cache so that start-up does not compile it again on every run (app/cli/launch/).
// CommonJS on purpose: Node starts it without the ESM loader, which costs more than a small scan.
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');

const cli = path.join(__dirname, '..', 'dist', 'cli.cjs');
const launch = path.join(__dirname, '..', 'dist', 'launch.cjs');
if (!existsSync(cli) || !existsSync(launch)) {
  process.stderr.write(
    'cni-doctor: not built yet — run `npm ci && npm run build` in the repository first\n',
  );
  process.exit(2);
}
require(launch).runCliBundle(cli);
