/**
 * Repairs that need root or Administrator run in a separate, elevated run of the engine — never in
 * the window's process. That run is `cni-doctor fix <id> --yes --json --preview-token=T` (this
 * same executable in CLI mode): it rescans the node, rebuilds the plan from the repair id itself
 * and checks it before touching anything, so the unelevated side can ask for nothing but a repair
 * id. Both are validated by the API's own patterns (a token can never start with `-`, and it is
 * passed as one `--preview-token=T` argument, so it cannot become an option).
 *
 * Linux: pkexec from its fixed system path (polkit asks for the password); the elevated run's
 * JSON answer comes back on its stdout, a pipe. The elevated file must be root-owned all the way
 * up (elevated-self.ts): a user-writable AppImage is refused with what to do instead.
 * Windows: a UAC prompt via `Start-Process -Verb RunAs` from System32's powershell.exe; UAC gives
 * no stdout back, so the elevated run connects to a named pipe this process created under a
 * random name and writes its answer there. Nothing is written to a file either way.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { ID_PATTERNS, type ApplyResult } from '../../shared/api';
import { ApiError } from '../shared-server/errors';
import { pkexecPath, windowsPowerShellPath } from '../../main/host/system-executables';
import { writableByNonRoot } from './elevated-self';
import { RESULT_PIPE_PATTERN } from './cli-mode';

export interface SelfCommand {
  /** Absolute path of the executable to elevate (the app, or the AppImage file itself). */
  exe: string;
  /** Arguments before ours (unpackaged runs: the app folder for the electron binary). */
  prefixArgs: string[];
}

export interface ElevatedCommand {
  file: string;
  args: string[];
}

/** Absolute paths of the elevation helpers (tests pass their own). */
export interface ElevationHelpers {
  pkexec: string | undefined;
  powershell: string;
}

export function systemHelpers(): ElevationHelpers {
  return { pkexec: pkexecPath(), powershell: windowsPowerShellPath() };
}

/** At most this much answer is read back (an ApplyResult is a few KiB). */
const MAX_ANSWER = 1024 * 1024;

/**
 * The command line; pure, so its quoting is unit-tested. `resultPipe` (Windows only) names the
 * pipe the elevated run writes its answer to.
 */
export function elevatedCommand(
  platform: NodeJS.Platform,
  self: SelfCommand,
  repairId: string,
  previewToken: string,
  helpers: ElevationHelpers,
  resultPipe?: string,
): ElevatedCommand {
  if (!ID_PATTERNS.repairId.test(repairId)) throw new ApiError('bad-request', 'invalid repair id');
  if (!ID_PATTERNS.previewToken.test(previewToken))
    throw new ApiError('bad-request', 'invalid preview token');
  const isAbsolute = platform === 'win32' ? path.win32.isAbsolute : path.posix.isAbsolute;
  if (!isAbsolute(self.exe)) throw new ApiError('internal', 'the executable path must be absolute');
  // --preview-token: the elevated engine refuses if its own fresh plan is not the one the user saw.
  const fixArgs = ['fix', repairId, '--yes', '--json', `--preview-token=${previewToken}`];
  if (platform === 'win32') {
    if (resultPipe === undefined || !RESULT_PIPE_PATTERN.test(resultPipe))
      throw new ApiError('internal', 'the elevated run needs a result pipe');
    if (!path.win32.isAbsolute(helpers.powershell))
      throw new ApiError('internal', 'powershell.exe must be an absolute path');
    if (/["\r\n]/.test(self.exe) || self.prefixArgs.some((a) => /["\r\n]/.test(a)))
      throw new ApiError('internal', 'unexpected character in a path');
    const quoteArg = (a: string): string => `"${a}"`;
    const psString = (s: string): string => `'${s.replace(/'/g, "''")}'`;
    const argLine = [...self.prefixArgs, '--cli', '--result-pipe', resultPipe, ...fixArgs]
      .map(quoteArg)
      .join(' ');
    const script = [
      '$ErrorActionPreference = "Stop"',
      `$p = Start-Process -FilePath ${psString(self.exe)} -ArgumentList ${psString(argLine)} -Verb RunAs -Wait -PassThru -WindowStyle Hidden`,
      'exit $p.ExitCode',
    ].join('; ');
    // -EncodedCommand: no shell ever re-parses the script (UTF-16LE, base64, as PowerShell wants).
    return {
      file: helpers.powershell,
      args: [
        '-NoProfile',
        '-NonInteractive',
        '-ExecutionPolicy',
        'Bypass',
        '-EncodedCommand',
        Buffer.from(script, 'utf16le').toString('base64'),
      ],
    };
  }
  if (helpers.pkexec === undefined || !path.posix.isAbsolute(helpers.pkexec))
    throw new ApiError(
      'unavailable',
      'pkexec (polkit) is not installed in /usr/bin or /bin; run the repair with sudo: cni-doctor fix ID --yes',
    );
  // Electron refuses to start as root with its sandbox on, and root has no display under pkexec:
  // the CLI mode opens no window, so both are safe to switch off for this run.
  return {
    file: helpers.pkexec,
    args: [
      self.exe,
      ...self.prefixArgs,
      '--no-sandbox',
      '--ozone-platform=headless',
      '--cli',
      ...fixArgs,
    ],
  };
}

/** Runs the elevated command; the answer arrives on its stdout (Linux) or on `pipe` (Windows). */
export function runElevated(
  cmd: ElevatedCommand,
  pipe?: string,
): Promise<{ code: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const take = (c: Buffer): void => {
      size += c.length;
      if (size <= MAX_ANSWER) chunks.push(c);
    };
    const server =
      pipe === undefined
        ? undefined
        : createServer((socket) => {
            // The first connection is the elevated run's; nobody else gets a second one.
            server?.close();
            socket.on('data', take);
            socket.on('error', () => undefined);
          });
    const start = (): void => {
      const child = spawn(cmd.file, cmd.args, {
        stdio: ['ignore', pipe === undefined ? 'pipe' : 'ignore', 'ignore'],
        windowsHide: true,
        shell: false,
      });
      child.stdout?.on('data', take);
      child.on('error', (e) => {
        server?.close();
        reject(e);
      });
      child.on('close', (code) => {
        server?.close();
        resolve({ code: code ?? 1, answer: Buffer.concat(chunks).toString('utf8') });
      });
    };
    if (server && pipe !== undefined) {
      server.on('error', reject);
      server.listen(pipe, start);
    } else start();
  });
}

/** pkexec: 126 = the user dismissed the dialog, 127 = not authorised. */
const CANCELLED = new Set([126, 127]);

export function makeElevatedRunner(
  self: SelfCommand,
  platform: NodeJS.Platform = process.platform,
  helpers: ElevationHelpers = systemHelpers(),
  isUnsafeSelf: (exe: string) => string | null = writableByNonRoot,
) {
  return async (repairId: string, previewToken: string): Promise<ApplyResult> => {
    if (platform !== 'win32') {
      const why = isUnsafeSelf(self.exe);
      if (why)
        throw new ApiError(
          'refused',
          `cannot elevate ${self.exe}: ${why}, so pkexec would run as root whatever is there by then. Install cni-doctor system-wide (the .deb or .rpm), or run the repair with sudo: cni-doctor fix ${repairId} --yes`,
        );
    }
    const pipe =
      platform === 'win32'
        ? `\\\\.\\pipe\\cni-doctor-elevated-${randomBytes(16).toString('hex')}`
        : undefined;
    const cmd = elevatedCommand(platform, self, repairId, previewToken, helpers, pipe);
    let r: { code: number; answer: string };
    try {
      r = await runElevated(cmd, pipe);
    } catch (e) {
      throw new ApiError('unavailable', `could not ask for elevation: ${(e as Error).message}`);
    }
    if (r.answer.trim() === '') {
      if (platform !== 'win32' && CANCELLED.has(r.code))
        throw new ApiError('refused', 'elevation was cancelled or not authorised');
      throw new ApiError(
        'refused',
        `the elevated repair did not run (exit ${r.code}); the permission prompt may have been cancelled`,
      );
    }
    try {
      return JSON.parse(r.answer) as ApplyResult;
    } catch {
      throw new ApiError('internal', 'the elevated repair gave an unreadable answer');
    }
  };
}
