/**
 * Repair environments for tests: a node tree under --root, its own state dir, privilege and
 * services injected, verification without waiting.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { RepairEnvironment, Rescan } from '../environment';
import { localEnvironment } from '../local-environment';
import { ProcessServiceManager } from '../services/process';
import type { ServiceManager } from '../services/types';

export interface TestEnvOptions {
  stateDir?: string;
  services?: ServiceManager;
  elevated?: boolean;
  rescan?: () => Promise<Rescan>;
  verifyTimeoutMs?: number;
  onTransition?: (point: string) => void;
}

export function newStateDir(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'cnid-state-')), 'state');
}

export function testEnvironment(root: string, o: TestEnvOptions = {}): RepairEnvironment {
  const env = localEnvironment({
    root,
    stateDir: o.stateDir ?? newStateDir(),
    ...(o.services && { services: o.services }),
    isElevated: () => o.elevated ?? true,
    verifyTimeoutMs: o.verifyTimeoutMs ?? 0,
    ...(o.onTransition && { onTransition: o.onTransition }),
  });
  return {
    ...env,
    serviceWaitMs: 200,
    verifyIntervalMs: 10,
    ...(o.rescan && { rescan: o.rescan }),
  };
}

/** A "running" service whose restarts are recorded; `failStart` makes a restart fail. */
export function fakeServices(
  names: string[],
  opts: { failStart?: (name: string, attempt: number) => boolean } = {},
): ProcessServiceManager & { starts: Record<string, number> } {
  const up: Record<string, boolean> = Object.fromEntries(names.map((n) => [n, true]));
  const starts: Record<string, number> = {};
  const mgr = new ProcessServiceManager(
    Object.fromEntries(
      names.map((n) => [
        n,
        {
          stop: async () => {
            up[n] = false;
          },
          start: async () => {
            starts[n] = (starts[n] ?? 0) + 1;
            if (opts.failStart?.(n, starts[n] as number))
              throw new Error(`${n} exited during start: invalid configuration`);
            up[n] = true;
          },
          isActive: () => up[n] === true,
        },
      ]),
    ),
  );
  return Object.assign(mgr, { starts });
}
