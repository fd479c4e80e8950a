/**
 * The live Windows host is loaded only on Windows (it spawns PowerShell). Every scan of this
 * process shares ONE long-lived PowerShell session (docs/knowledge/windows-node.md#scale: module imports and shell
 * start-up are paid once); each scan still gets a fresh WindowsHost, so nothing a previous scan
 * read is reused (a repair's verification rescans the node as it is now).
 */
import type { Host } from '../host/host';
import { PowerShellSession } from '../host/windows/powershell-session';
import { WindowsHost } from '../host/windows/windows-host';
import type { HostRequest } from './open-host';

let shared: PowerShellSession | undefined;

/** The process-wide session (repairs run their allow-listed steps through it too). */
export function windowsSession(): PowerShellSession {
  shared ??= new PowerShellSession({ languageProbe: 'This Windows node' });
  return shared;
}

export async function openWindowsHost(req: HostRequest): Promise<Host> {
  return new WindowsHost(windowsSession(), {
    ...(req.criDeadlineMs !== undefined && { criDeadlineMs: req.criDeadlineMs }),
  });
}
