/** The live Windows host is loaded only on Windows (it spawns PowerShell). */
import type { Host } from '../host/host';
import type { HostRequest } from './open-host';

export async function openWindowsHost(_req: HostRequest): Promise<Host> {
  throw new Error('live Windows scanning is not available in this build yet; collect a bundle with the PowerShell collector and scan it with --bundle');
}
