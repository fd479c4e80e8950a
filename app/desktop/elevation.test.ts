import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { elevatedCommand, makeElevatedRunner, runElevated } from './elevation';
import { cliArgs } from './cli-mode';
import { writableByNonRoot } from './elevated-self';
import { pkexecPath, windowsPowerShellPath } from '../../main/host/system-executables';

const ID = 'containerd.cri.disabled:remove-disabled-plugin';
const TOKEN = 'AQIDBAUGBwgJ_-abc';
const HELPERS = {
  pkexec: '/usr/bin/pkexec',
  powershell: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
};
const PIPE = `\\\\.\\pipe\\cni-doctor-elevated-${'ab'.repeat(16)}`;

describe('elevated repair command (issue 9 item 8)', () => {
  it('Linux: pkexec by its absolute path runs this app in CLI mode, the answer on stdout', () => {
    const c = elevatedCommand(
      'linux',
      { exe: '/opt/cni-doctor/cni-doctor', prefixArgs: [] },
      ID,
      TOKEN,
      HELPERS,
    );
    expect(c.file).toBe('/usr/bin/pkexec');
    expect(c.args).toEqual([
      '/opt/cni-doctor/cni-doctor',
      '--no-sandbox',
      '--ozone-platform=headless',
      '--cli',
      'fix',
      ID,
      '--yes',
      '--json',
      `--preview-token=${TOKEN}`,
    ]);
    expect(c.args.join(' ')).not.toMatch(/result-file|\/tmp/);
  });

  it('Windows: System32 powershell.exe, UAC through Start-Process -Verb RunAs, the answer over a named pipe', () => {
    const c = elevatedCommand(
      'win32',
      { exe: 'C:\\Program Files\\cni-doctor\\cni-doctor.exe', prefixArgs: [] },
      ID,
      TOKEN,
      HELPERS,
      PIPE,
    );
    expect(c.file).toBe('C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe');
    expect(c.args.slice(0, 5)).toEqual([
      '-NoProfile',
      '-NonInteractive',
      '-ExecutionPolicy',
      'Bypass',
      '-EncodedCommand',
    ]);
    const script = Buffer.from(c.args[5] ?? '', 'base64').toString('utf16le');
    expect(script).toContain(
      "Start-Process -FilePath 'C:\\Program Files\\cni-doctor\\cni-doctor.exe'",
    );
    expect(script).toContain('-Verb RunAs -Wait -PassThru');
    expect(script).toContain(
      `"--cli" "--result-pipe" "${PIPE}" "fix" "${ID}" "--yes" "--json" "--preview-token=${TOKEN}"`,
    );
    // No pipe, or one of another name: refused.
    for (const bad of [undefined, '\\\\.\\pipe\\other', 'C:\\Users\\x\\result.json'])
      expect(() =>
        elevatedCommand('win32', { exe: 'C:\\x.exe', prefixArgs: [] }, ID, TOKEN, HELPERS, bad),
      ).toThrow(/result pipe/);
  });

  it('refuses anything that is not a repair id, and a token that could read as an option', () => {
    const self = { exe: '/opt/x', prefixArgs: [] };
    for (const bad of ['; rm -rf /', '$(id)', 'a b', '"x', "x' -Verb RunAs", '../x', '']) {
      expect(() => elevatedCommand('linux', self, bad, TOKEN, HELPERS)).toThrow();
      expect(() =>
        elevatedCommand('win32', { exe: 'C:\\x.exe', prefixArgs: [] }, bad, TOKEN, HELPERS, PIPE),
      ).toThrow();
      expect(() => elevatedCommand('linux', self, ID, bad || 'short', HELPERS)).toThrow();
    }
    for (const option of ['--state-dir-x', '-rf_abcdefgh', '_abcdefgh'])
      expect(() => elevatedCommand('linux', self, ID, option, HELPERS)).toThrow(/preview token/);
    expect(() =>
      elevatedCommand('linux', { exe: 'cni-doctor', prefixArgs: [] }, ID, TOKEN, HELPERS),
    ).toThrow(/absolute/);
    expect(() =>
      elevatedCommand('linux', self, ID, TOKEN, { ...HELPERS, pkexec: undefined }),
    ).toThrow(/pkexec/);
  });
});

describe('helpers come from fixed system locations, never PATH', () => {
  it('pkexec from /usr/bin or /bin only', () => {
    expect(pkexecPath((p) => p === '/bin/pkexec')).toBe('/bin/pkexec');
    expect(pkexecPath((p) => p === '/usr/bin/pkexec')).toBe('/usr/bin/pkexec');
    expect(pkexecPath(() => false)).toBeUndefined();
  });

  it('powershell.exe under SystemRoot, which must be a plain absolute path', () => {
    expect(windowsPowerShellPath({ SystemRoot: 'D:\\WINDOWS' })).toBe(
      'D:\\WINDOWS\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
    );
    for (const SystemRoot of [undefined, 'relative', '\\\\evil\\share', 'C:\\x"y'])
      expect(windowsPowerShellPath({ SystemRoot })).toBe(
        'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      );
  });
});

describe('the elevated file must be root-owned all the way up', () => {
  const stat =
    (tree: Record<string, { uid: number; mode: number; link?: boolean }>) => (p: string) => {
      const e = tree[p];
      if (!e) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
      return { uid: e.uid, mode: e.mode, isSymbolicLink: () => e.link === true };
    };
  const root = { uid: 0, mode: 0o40755 };

  it('accepts a root-owned install, refuses a user-writable AppImage or folder', () => {
    expect(
      writableByNonRoot(
        '/opt/cni-doctor/cni-doctor',
        stat({
          '/': root,
          '/opt': root,
          '/opt/cni-doctor': root,
          '/opt/cni-doctor/cni-doctor': { uid: 0, mode: 0o100755 },
        }),
      ),
    ).toBeNull();
    expect(
      writableByNonRoot(
        '/home/u/cni-doctor.AppImage',
        stat({
          '/': root,
          '/home': root,
          '/home/u': { uid: 1000, mode: 0o40755 },
          '/home/u/cni-doctor.AppImage': { uid: 1000, mode: 0o100755 },
        }),
      ),
    ).toMatch(/owned by uid 1000/);
    expect(
      writableByNonRoot(
        '/opt/x/app',
        stat({
          '/': root,
          '/opt': { uid: 0, mode: 0o40777 },
          '/opt/x': root,
          '/opt/x/app': { uid: 0, mode: 0o100755 },
        }),
      ),
    ).toMatch(/\/opt is writable/);
  });

  it('the runner refuses before any prompt when the file is user-writable', async () => {
    const run = makeElevatedRunner(
      { exe: '/home/u/app', prefixArgs: [] },
      'linux',
      HELPERS,
      () => 'owned by uid 1000',
    );
    await expect(run(ID, TOKEN)).rejects.toMatchObject({ code: 'refused' });
  });
});

describe('the answer comes back over a pipe', () => {
  it('reads the elevated run’s stdout, with no file in between', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'elevation-'));
    try {
      // A stand-in for pkexec: prints the JSON answer the elevated CLI would.
      const fake = path.join(dir, 'fake-pkexec');
      writeFileSync(fake, '#!/bin/sh\necho \'{"status":"applied","args":"\'"$*"\'"}\'\n');
      chmodSync(fake, 0o755);
      const cmd = elevatedCommand('linux', { exe: '/opt/x', prefixArgs: [] }, ID, TOKEN, {
        ...HELPERS,
        pkexec: fake,
      });
      const r = await runElevated(cmd);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.answer)).toMatchObject({ status: 'applied' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('CLI mode arguments', () => {
  it('finds the command after --cli, drops Chromium switches, takes only our own result pipe', () => {
    expect(cliArgs(['/opt/x', 'main.cjs'])).toBeUndefined();
    expect(
      cliArgs([
        '/opt/x',
        '--no-sandbox',
        '--ozone-platform=headless',
        '--cli',
        '--result-pipe',
        PIPE,
        'fix',
        ID,
        '--yes',
        '--json',
      ]),
    ).toEqual({ args: ['fix', ID, '--yes', '--json'], resultPipe: PIPE });
    expect(cliArgs(['/opt/x', '--cli', 'scan', '--json'])).toEqual({ args: ['scan', '--json'] });
    // The old result file (a root write into a user's temp folder) is gone; other pipes refused.
    expect(cliArgs(['/opt/x', '--cli', '--result-pipe', '/tmp/r.json', 'fix', ID])).toEqual({
      error: '--result-pipe must name a cni-doctor-elevated pipe',
    });
  });
});
