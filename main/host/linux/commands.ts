/** The few commands a live Linux host runs: systemctl, journalctl, `<binary> --version`. */
import { existsSync } from 'node:fs';
import type { Fact } from '../../../shared/model/fact';
import { known, unknownFact } from '../../../shared/model/fact';
import type { ServiceFact, ServiceState } from '../../../shared/model/snapshot';

interface RunResult {
  ok: boolean;
  stdout: string;
  stderr: string;
}

export async function run(
  cmd: string,
  args: readonly string[],
  timeoutMs = 3000,
): Promise<RunResult> {
  // child_process loads when a command runs (a live scan), not when a bundle scan starts.
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile(
      cmd,
      [...args],
      { timeout: timeoutMs, maxBuffer: 8 * 1024 * 1024, killSignal: 'SIGKILL' },
      (err, stdout, stderr) => {
        resolve({ ok: !err, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

const hasSystemd = (): boolean => existsSync('/run/systemd/system');

export async function systemdServices(names: readonly string[]): Promise<Fact<ServiceFact[]>> {
  if (!hasSystemd()) return unknownFact('systemd is not running on this machine');
  const r = await run('systemctl', [
    'show',
    '--no-pager',
    '-p',
    'Id,LoadState,ActiveState',
    ...names.map((n) => `${n}.service`),
  ]);
  if (!r.stdout) return unknownFact(`systemctl failed: ${r.stderr.trim().slice(0, 200)}`);
  return known(parseSystemctlShow(r.stdout, names));
}

/** `systemctl show -p Id,LoadState,ActiveState a.service b.service` → one fact per name, in order. */
export function parseSystemctlShow(stdout: string, names: readonly string[]): ServiceFact[] {
  const blocks = stdout.trim().split(/\n\s*\n/);
  return blocks.map((block, i) => {
    const get = (k: string): string => new RegExp(`^${k}=(.*)$`, 'm').exec(block)?.[1] ?? '';
    const load = get('LoadState');
    const active = get('ActiveState');
    const state: ServiceState =
      load === 'not-found'
        ? 'missing'
        : active === 'active' || active === 'reloading'
          ? 'running'
          : active === 'failed'
            ? 'failed'
            : active === 'inactive'
              ? 'stopped'
              : 'unknown';
    return { name: names[i] ?? get('Id').replace(/\.service$/, ''), state };
  });
}

export async function journalExcerpt(
  unit: string,
  lines: number,
): Promise<Fact<string> | undefined> {
  if (!hasSystemd() && !existsSync('/var/log/journal') && !existsSync('/run/log/journal'))
    return undefined;
  const r = await run(
    'journalctl',
    ['-u', unit, '-n', String(lines), '--no-pager', '-o', 'short-iso'],
    10_000,
  );
  if (!r.ok && !r.stdout) return unknownFact(`journalctl failed: ${r.stderr.trim().slice(0, 200)}`);
  return journalFact(r.stdout);
}

/**
 * journalctl's output as a fact; undefined when the unit has no entries — or when the node keeps
 * no journal at all: journalctl then says "No journal files were found." before "-- No entries
 * --" (seen through a kubectl debug pod on a node without systemd, where a scan on the node
 * itself finds no journal and reports the log checks unknown; the remote scan must agree).
 */
export function journalFact(stdout: string): Fact<string> | undefined {
  const rest = stdout
    .split('\n')
    .filter((l) => !/^(-- No entries --|No journal files were found\.)?\s*$/.test(l));
  if (rest.length === 0) return undefined;
  return known(stdout);
}

/** First version-looking token of `<path> --version` (kubelet, containerd, crio, runc, k3s). */
export async function runVersion(path: string): Promise<string | undefined> {
  if (!existsSync(path)) return undefined;
  const r = await run(path, ['--version'], 3000);
  return versionIn(`${r.stdout}\n${r.stderr}`);
}

/** The first version-looking token of a `--version` output. */
export function versionIn(text: string): string | undefined {
  return /\bv?\d+\.\d+\.\d+[^\s,]*/.exec(text)?.[0];
}
