import { describe, expect, it } from 'vitest';
import { COMMANDS, main } from './main';
import { captureIo } from '../../fixtures/capture-io';

describe('main', () => {
  // cli.md: exit 2 comes with one clear line on stderr.
  it('answers a missing command with exit 2 and one line on stderr', async () => {
    const io = captureIo();
    expect(await main([], io)).toBe(2);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(/^cni-doctor: missing command: scan, .*\(try --help\)$/);
    expect(io.stdout).toEqual([]);
  });

  it('prints the usage on --help with exit 0, one line per command', async () => {
    const io = captureIo();
    expect(await main(['--help'], io)).toBe(0);
    for (const c of COMMANDS) expect(io.stdout.join('\n')).toContain(`cni-doctor ${c.name} `);
  });

  it.each(COMMANDS.map((c) => c.name))(
    'answers "%s --help" with its own help, exit 0',
    async (name) => {
      for (const argv of [
        [name, '--help'],
        ['help', name],
      ]) {
        const io = captureIo();
        expect(await main(argv, io)).toBe(0);
        expect(io.stderr).toEqual([]);
        expect(io.stdout.join('\n')).toMatch(
          new RegExp(`^cni-doctor ${name}: .*\\n\\nusage: cni-doctor ${name}`),
        );
      }
    },
  );

  it('turns a usage error into one line naming the command and its help, exit 2', async () => {
    const io = captureIo();
    expect(await main(['history', '--frobnicate'], io)).toBe(2);
    expect(io.stderr).toEqual([
      'cni-doctor history: unknown option --frobnicate for "history" (try cni-doctor history --help)',
    ]);
    expect(io.stdout).toEqual([]);
  });

  it('shows escape sequences in a bad argument instead of sending them to the terminal', async () => {
    const io = captureIo();
    expect(await main(['scan', '--\x1b[31mred'], io)).toBe(2);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).not.toContain('\x1b');
  });
});
