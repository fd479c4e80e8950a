import { describe, expect, it } from 'vitest';
import { elevatedCommand } from './elevation';
import { cliArgs } from './cli-mode';

const ID = 'containerd.cri.disabled:remove-disabled-plugin';
const TOKEN = 'AQIDBAUGBwgJ_-abc';

describe('elevated repair command', () => {
  it('Linux: pkexec runs this app in CLI mode with the repair id only', () => {
    const c = elevatedCommand(
      'linux',
      { exe: '/opt/cni-doctor/cni-doctor', prefixArgs: [] },
      ID,
      TOKEN,
      '/tmp/cni-doctor-elevated-x/result.json',
    );
    expect(c.file).toBe('pkexec');
    expect(c.args).toEqual([
      '/opt/cni-doctor/cni-doctor',
      '--no-sandbox',
      '--ozone-platform=headless',
      '--cli',
      '--result-file',
      '/tmp/cni-doctor-elevated-x/result.json',
      'fix',
      ID,
      '--yes',
      '--json',
      '--preview-token',
      TOKEN,
    ]);
  });

  it('Windows: UAC through Start-Process -Verb RunAs in an encoded command (no shell re-parsing)', () => {
    const c = elevatedCommand(
      'win32',
      { exe: 'C:\\Program Files\\cni-doctor\\cni-doctor.exe', prefixArgs: [] },
      ID,
      TOKEN,
      "C:\\Users\\O'Brien Smith\\AppData\\Local\\Temp\\r\\result.json",
    );
    expect(c.file).toBe('powershell.exe');
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
      `"--cli" "--result-file" "C:\\Users\\O''Brien Smith\\AppData\\Local\\Temp\\r\\result.json" "fix" "${ID}" "--yes" "--json" "--preview-token" "${TOKEN}"`,
    );
  });

  it('refuses anything that is not a repair id', () => {
    for (const bad of ['; rm -rf /', '$(id)', 'a b', '"x', "x' -Verb RunAs", '../x', '']) {
      expect(() =>
        elevatedCommand('linux', { exe: '/opt/x', prefixArgs: [] }, bad, TOKEN, '/tmp/r'),
      ).toThrow();
      expect(() =>
        elevatedCommand('win32', { exe: 'C:\\x.exe', prefixArgs: [] }, bad, TOKEN, 'C:\\r'),
      ).toThrow();
      expect(() =>
        elevatedCommand('linux', { exe: '/opt/x', prefixArgs: [] }, ID, bad || 'short', '/tmp/r'),
      ).toThrow();
    }
    expect(() =>
      elevatedCommand('linux', { exe: 'cni-doctor', prefixArgs: [] }, ID, TOKEN, '/tmp/r'),
    ).toThrow(/absolute/);
  });
});

describe('CLI mode arguments', () => {
  it('finds the command after --cli, drops Chromium switches, and takes the result file', () => {
    expect(cliArgs(['/opt/x', 'main.cjs'])).toBeUndefined();
    expect(
      cliArgs([
        '/opt/x',
        '--no-sandbox',
        '--ozone-platform=headless',
        '--cli',
        '--result-file',
        '/tmp/r.json',
        'fix',
        ID,
        '--yes',
        '--json',
      ]),
    ).toEqual({ args: ['fix', ID, '--yes', '--json'], resultFile: '/tmp/r.json' });
    expect(cliArgs(['/opt/x', '--cli', 'scan', '--json'])).toEqual({ args: ['scan', '--json'] });
  });
});
