/**
 * The CLI, as `bin/cni-doctor.mjs` runs it, plus test hooks — for the crash tests, which run it
 * as a child process and kill it at a journal transition:
 *
 *   CNI_DOCTOR_CRASH_AT=<point>      SIGKILL this process right after <point> is persisted
 *                                    (`planned`, `step-1:temp-written`, `rollback-step-2:reverted`…)
 *   CNI_DOCTOR_LIST_POINTS=1         print `transition <point>` to stderr for every point
 *   CNI_DOCTOR_STALE_RESCAN=1        verification sees the pre-repair scan (forces a rollback)
 *
 * Never part of the shipped CLI: app/cli/entry.ts has no such hooks. It lives beside the CLI it
 * drives because the engine (main/) may not import the doors (docs/architecture.md).
 */
import { main } from '../main';
import { configureRepairCommands } from '../commands/repair-commands';
import type { ScanResult } from '../../../main/engine/scan';
import { localEnvironment } from '../../../main/repairs/local-environment';

const crashAt = process.env.CNI_DOCTOR_CRASH_AT;
const list = process.env.CNI_DOCTOR_LIST_POINTS === '1';
const stale = process.env.CNI_DOCTOR_STALE_RESCAN === '1';

configureRepairCommands({
  onTransition(point) {
    if (list) process.stderr.write(`transition ${point}\n`);
    if (point === crashAt) process.kill(process.pid, 'SIGKILL');
  },
  environment(opts) {
    const env = localEnvironment(opts);
    if (!stale) return env;
    let first: ScanResult | undefined;
    const scan = env.scan;
    return {
      ...env,
      scan: async () => (first ??= await scan()),
      rescan: async () => first ?? scan(),
    };
  },
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`cni-doctor: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  },
);
