/**
 * A `serve` for the winrm: password dialog on Linux, where no WinRM client exists and the product
 * refuses winrm: before anything starts. Below that refusal: the engine is told the workstation is
 * Windows, its local shell is the real pwsh 7 behind a wrapper that records the shell's argv,
 * environment and stdin, and a stand-in New-PSSession reports what -Credential carried (the .NET
 * type and the SHA-256 of the characters; main/remote/windows/testing/stand-in-winrm.ts). Errors
 * the door logs are kept for the test.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDispatcher } from '../../app/shared-server/dispatch';
import { createEngineBackend } from '../../app/shared-server/engine-backend';
import { engineRepairs } from '../../app/shared-server/engine-repairs';
import { ProgressBus } from '../../app/shared-server/progress';
import { TargetRegistry } from '../../app/shared-server/targets';
import { startWebServer } from '../../app/web/server';
import { pwshPath, psQuote } from '../../main/host/windows/testing/pwsh';
import { STAND_IN_NEW_PSSESSION } from '../../main/remote/windows/testing/stand-in-winrm';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface WinrmServer {
  url: string;
  /** What the local shell was given: its argv, environment and every byte of its stdin. */
  shellSaw(): string;
  /** The errors the door logged (op, code, message). */
  logged: string[];
  close(): Promise<void>;
}

export async function serveWinrmStandIn(): Promise<WinrmServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cni-doctor-e2e-winrm-'));
  const log = path.join(dir, 'shell.log');
  writeFileSync(log, '');
  const shell = path.join(dir, 'shell.sh');
  writeFileSync(
    shell,
    `#!/bin/sh\nprintf '%s\\n' "$@" >> ${psQuote(log)}\nenv >> ${psQuote(log)}\ntee -a ${psQuote(log)} | exec ${psQuote(pwshPath())} "$@"\n`,
  );
  chmodSync(shell, 0o755);
  const progress = new ProgressBus();
  const logged: string[] = [];
  const backend = await createEngineBackend({
    door: 'web',
    progress,
    repairs: engineRepairs({ stateDir: path.join(dir, 'state') }),
    demosDir: path.join(ROOT, 'assets', 'demo'),
    tmpRoot: dir,
    rememberFile: path.join(dir, 'last-target'),
    targets: new TargetRegistry(async () => ({ targets: [], notes: [] })),
    targetOptions: {
      remoting: {
        shellLookup: { platform: 'win32', env: {}, home: 'C:\\Users\\u', exists: () => true },
        executable: shell,
        localInit: STAND_IN_NEW_PSSESSION,
      },
    },
  });
  const server = await startWebServer({
    dispatcher: createDispatcher({
      backend,
      onError: (op, code, message) => logged.push(`${op} ${code} ${message}`),
    }),
    progress,
    staticDir: path.join(ROOT, 'dist', 'renderer'),
  });
  return {
    url: server.url,
    shellSaw: () => readFileSync(log, 'utf8'),
    logged,
    close: async () => {
      await server.close();
      await backend.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
