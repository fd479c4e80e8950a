/** systemd: `systemctl restart` / `is-active` (argument vectors, no shell). */
import { execFile } from 'node:child_process';
import { assertServiceName, type RestartOptions, type ServiceManager } from './types';

function systemctl(args: string[], timeoutMs: number): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('systemctl', args, { timeout: timeoutMs, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err
        ? typeof (err as { code?: unknown }).code === 'number'
          ? (err as { code: number }).code
          : 1
        : 0;
      resolve({ code, out: `${stdout}${stderr}`.trim() });
    });
  });
}

export class SystemdServiceManager implements ServiceManager {
  readonly kind = 'systemd';
  readonly live = true;

  constructor(private readonly timeoutMs = 120_000) {}

  async restart(name: string, opts: RestartOptions = {}): Promise<void> {
    assertServiceName(name);
    if (opts.daemonReload) {
      const r = await systemctl(['daemon-reload'], this.timeoutMs);
      if (r.code !== 0)
        throw new Error(`systemctl daemon-reload failed: ${r.out || `exit ${r.code}`}`);
    }
    const r = await systemctl(['restart', `${name}.service`], this.timeoutMs);
    if (r.code !== 0)
      throw new Error(`systemctl restart ${name} failed: ${r.out || `exit ${r.code}`}`);
  }

  async isActive(name: string): Promise<boolean> {
    assertServiceName(name);
    return (await systemctl(['is-active', '--quiet', `${name}.service`], 10_000)).code === 0;
  }
}
