/**
 * A throwaway sshd on 127.0.0.1 for the PowerShell-over-SSH tests: its own config, host key and
 * client key in a temp dir, a free high port, pwsh registered as the `powershell` subsystem
 * (`Subsystem powershell <pwsh> -sshs -NoLogo`, as on a Windows node set up for PowerShell
 * remoting over SSH). Needs root (sshd's privilege separation) and openssh-server/-client.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LoopbackSshd {
  port: number;
  keyFile: string;
  knownHosts: string;
  stop(): Promise<void>;
}

const SSHD = '/usr/sbin/sshd';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export async function startLoopbackSshd(pwsh: string): Promise<LoopbackSshd> {
  if (process.getuid?.() !== 0)
    throw new Error('the loopback sshd needs root (privilege separation)');
  const dir = mkdtempSync(join(tmpdir(), 'cni-doctor-sshd-'));
  const keygen = (file: string): void => {
    execFileSync('ssh-keygen', [
      '-q',
      '-t',
      'ed25519',
      '-N',
      '',
      '-C',
      'cni-doctor-test',
      '-f',
      file,
    ]);
  };
  keygen(join(dir, 'host_ed25519'));
  keygen(join(dir, 'client_ed25519'));
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_ed25519.pub')));
  const port = await freePort();
  const hostPub = readFileSync(join(dir, 'host_ed25519.pub'), 'utf8')
    .trim()
    .split(' ')
    .slice(0, 2)
    .join(' ');
  writeFileSync(join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${hostPub}\n`);
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_ed25519')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'StrictModes no',
      'UsePAM no',
      `Subsystem powershell ${pwsh} -sshs -NoLogo`,
      '',
    ].join('\n'),
  );
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`sshd did not start: ${log}`)), 15_000);
    const check = (): void => {
      if (/Server listening/.test(log)) {
        clearTimeout(t);
        resolve();
      }
    };
    child.stderr?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`sshd exited (${code}): ${log}`));
    });
  });
  return {
    port,
    keyFile: join(dir, 'client_ed25519'),
    knownHosts: join(dir, 'known_hosts'),
    stop: async () => {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
