/** Windows services, restarted through the allow-listed `Restart-Service` cmdlet. */
import type { PowerShellRunner } from './powershell';
import { assertServiceName, type ServiceManager } from './types';

export class WindowsServiceManager implements ServiceManager {
  readonly kind = 'windows';
  readonly live = true;

  constructor(private readonly ps: PowerShellRunner) {}

  async restart(name: string): Promise<void> {
    assertServiceName(name);
    const r = await this.ps.run('Restart-Service', { Name: name, Force: true });
    if (!r.ok) throw new Error(`Restart-Service ${name} failed: ${r.error ?? r.output}`);
  }

  async isActive(name: string): Promise<boolean> {
    assertServiceName(name);
    return (await this.ps.serviceStatus(name)) === 'Running';
  }
}
