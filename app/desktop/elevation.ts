/**
 * Repairs that need root or Administrator run in a separate, elevated run of the engine — never in
 * the window's process. That run is `cni-doctor fix <id> --yes --json --preview-token T` (this same executable in
 * CLI mode): it rescans the node, rebuilds the plan from the repair id itself and checks it before
 * touching anything, so the unelevated side can ask for nothing but a repair id.
 *
 * Linux: pkexec (polkit asks for the password). Windows: a UAC prompt via
 * `Start-Process -Verb RunAs`; UAC gives no stdout back, so the elevated run writes its JSON answer
 * into a file in a private temporary folder.
 */
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ID_PATTERNS, type ApplyResult } from '../../shared/api';
import { ApiError } from '../shared-server/errors';

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

/** The command line; pure, so its quoting is unit-tested. */
export function elevatedCommand(
  platform: NodeJS.Platform,
  self: SelfCommand,
  repairId: string,
  previewToken: string,
  resultFile: string,
): ElevatedCommand {
  if (!ID_PATTERNS.repairId.test(repairId)) throw new ApiError('bad-request', 'invalid repair id');
  if (!ID_PATTERNS.previewToken.test(previewToken))
    throw new ApiError('bad-request', 'invalid preview token');
  const isAbsolute = platform === 'win32' ? path.win32.isAbsolute : path.posix.isAbsolute;
  if (!isAbsolute(self.exe)) throw new ApiError('internal', 'the executable path must be absolute');
  // --preview-token: the elevated engine refuses if its own fresh plan is not the one the user saw.
  const cliArgs = [
    '--cli',
    '--result-file',
    resultFile,
    'fix',
    repairId,
    '--yes',
    '--json',
    '--preview-token',
    previewToken,
  ];
  if (platform === 'win32') {
    if (
      /["\r\n]/.test(resultFile) ||
      /["\r\n]/.test(self.exe) ||
      self.prefixArgs.some((a) => /["\r\n]/.test(a))
    )
      throw new ApiError('internal', 'unexpected character in a path');
    const quoteArg = (a: string): string => `"${a}"`;
    const psString = (s: string): string => `'${s.replace(/'/g, "''")}'`;
    const argLine = [...self.prefixArgs, ...cliArgs].map(quoteArg).join(' ');
    const script = [
      '$ErrorActionPreference = "Stop"',
      `$p = Start-Process -FilePath ${psString(self.exe)} -ArgumentList ${psString(argLine)} -Verb RunAs -Wait -PassThru -WindowStyle Hidden`,
      'exit $p.ExitCode',
    ].join('; ');
    // -EncodedCommand: no shell ever re-parses the script (UTF-16LE, base64, as PowerShell wants).
    return {
      file: 'powershell.exe',
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
  // Electron refuses to start as root with its sandbox on, and root has no display under pkexec:
  // the CLI mode opens no window, so both are safe to switch off for this run.
  return {
    file: 'pkexec',
    args: [self.exe, ...self.prefixArgs, '--no-sandbox', '--ozone-platform=headless', ...cliArgs],
  };
}

function run(cmd: ElevatedCommand): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd.file, cmd.args, { stdio: 'ignore', windowsHide: true, shell: false });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

/** pkexec: 126 = the user dismissed the dialog, 127 = not authorised. */
const CANCELLED = new Set([126, 127]);

export function makeElevatedRunner(
  self: SelfCommand,
  platform: NodeJS.Platform = process.platform,
) {
  return async (repairId: string, previewToken: string): Promise<ApplyResult> => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cni-doctor-elevated-'));
    const resultFile = path.join(dir, 'result.json');
    try {
      let code: number;
      try {
        code = await run(elevatedCommand(platform, self, repairId, previewToken, resultFile));
      } catch (e) {
        throw new ApiError('unavailable', `could not ask for elevation: ${(e as Error).message}`);
      }
      const text = await fsp.readFile(resultFile, 'utf8').catch(() => undefined);
      if (text === undefined) {
        if (platform !== 'win32' && CANCELLED.has(code))
          throw new ApiError('refused', 'elevation was cancelled or not authorised');
        throw new ApiError(
          'refused',
          `the elevated repair did not run (exit ${code}); the permission prompt may have been cancelled`,
        );
      }
      try {
        return JSON.parse(text) as ApplyResult;
      } catch {
        throw new ApiError('internal', 'the elevated repair gave an unreadable answer');
      }
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  };
}
