#!/usr/bin/env node
// The same command as bin/cni-doctor.cjs (the package's `bin`), for scripts and tests that start
// the CLI by this path. bin/cni-doctor.cjs starts sooner: Node runs it without the ESM loader.
import { createRequire } from 'node:module';

createRequire(import.meta.url)('./cni-doctor.cjs');
