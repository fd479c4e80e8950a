/**
 * The environment for a real node: this machine (`/`) or a Linux node disk under --root. Doors
 * (CLI, desktop, serve) build theirs here and override only what they must (tests and the lab
 * inject services, privilege and rescans).
 */
import { openHost } from '../engine/open-host';
import { scanHost } from '../engine/scan';
import { shellLine } from '../../shared/shell-quote';
import { DEFAULT_RERUN, type RepairEnvironment } from './environment';
import { LocalNodeFs } from './node-fs';
import { OfflineServiceManager } from './services/offline';
import {
  scriptPowerShellRunner,
  type PowerShellRunner,
  type ScriptRunnerLike,
} from './services/powershell';
import { isWindowsAdmin } from '../host/windows/elevation';
import { SystemdServiceManager } from './services/systemd';
import type { ServiceManager } from './services/types';
import { WindowsServiceManager } from './services/windows';
import { defaultStateDir } from './state-dir';

export interface LocalEnvironmentOptions {
  /** A Linux node disk mounted here (default: this machine). */
  root?: string;
  stateDir?: string;
  services?: ServiceManager;
  powershell?: PowerShellRunner;
  isElevated?: () => boolean | Promise<boolean>;
  criDeadlineMs?: number;
  onTransition?: (point: string) => void;
  verifyTimeoutMs?: number;
  rerunCommand?: (repairId: string) => string;
}

const unavailable: ServiceManager = {
  kind: 'unavailable',
  live: true,
  restart: async (name) => {
    throw new Error(`cannot restart ${name}: no service manager is available in this build`);
  },
  isActive: async () => false,
};

export function defaultIsElevated(): boolean {
  return process.getuid?.() === 0;
}

/** The process-wide PowerShell session (the one scans use), loaded only when first asked. */
const windowsShell: ScriptRunnerLike = {
  run: async (script, o) =>
    (await import('../engine/open-windows-host')).windowsSession().run(script, o),
};

/** `cmd --root R --state-dir S` (each only when set), shell-quoted. */
function withTarget(cmd: string, root: string, stateDir: string | undefined): string {
  const args = [
    ...(root !== '/' ? ['--root', root] : []),
    ...(stateDir !== undefined ? ['--state-dir', stateDir] : []),
  ];
  return args.length ? `${cmd} ${shellLine(args)}` : cmd;
}

export function localEnvironment(opts: LocalEnvironmentOptions = {}): RepairEnvironment {
  const root = opts.root ?? '/';
  const fs = new LocalNodeFs(root);
  const os = process.platform === 'win32' ? 'windows' : 'linux';
  const windowsLive = os === 'windows' && fs.live;
  const powershell =
    opts.powershell ?? (windowsLive ? scriptPowerShellRunner(windowsShell) : undefined);
  const services =
    opts.services ??
    (!fs.live
      ? new OfflineServiceManager()
      : os === 'windows'
        ? powershell
          ? new WindowsServiceManager(powershell)
          : unavailable
        : new SystemdServiceManager());
  return {
    // A new host per scan: nothing cached between the preview, the apply and the verification.
    scan: async () =>
      scanHost(
        await openHost({
          ...(root !== '/' && { root }),
          ...(opts.criDeadlineMs !== undefined && { criDeadlineMs: opts.criDeadlineMs }),
        }),
      ),
    fs,
    services,
    ...(powershell && { powershell }),
    isElevated:
      opts.isElevated ?? (windowsLive ? () => isWindowsAdmin(windowsShell) : defaultIsElevated),
    stateDir: opts.stateDir ?? defaultStateDir(os, root),
    ...(opts.onTransition && { onTransition: opts.onTransition }),
    ...(opts.verifyTimeoutMs !== undefined && { verifyTimeoutMs: opts.verifyTimeoutMs }),
    // Doors without their own wording (serve, the desktop) still name the same target.
    rerunCommand: opts.rerunCommand ?? ((id) => withTarget(DEFAULT_RERUN(id), root, opts.stateDir)),
  };
}
