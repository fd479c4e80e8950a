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
// A node container's agent first (main/remote/early-agent.ts): its client's set-up (60-80 ms of
// `podman exec`) then overlaps loading the launcher (~3 ms: vm, v8, zlib) and the bundle. Only for
// such command lines; a missing or broken early-agent.cjs only costs the head start.
const argv = process.argv.slice(2);
if (argv[0] === 'scan' && argv.some((a) => a.includes('container:'))) {
  try {
    require(path.join(__dirname, '..', 'dist', 'early-agent.cjs')).startEarlyAgent(argv);
  } catch {
    // The bundle starts the agent itself, as it always can.
  }
}
require(launch).runCliBundle(cli);
