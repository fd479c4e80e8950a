import { describe, expect, it } from 'vitest';
import { main } from './main';
import type { Io } from './io';

function capture(): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (t) => stdout.push(t),
    err: (t) => stderr.push(t),
    progress: () => undefined,
    isTty: false,
  };
}

describe('main', () => {
  // cli.md: exit 2 comes with one clear line on stderr.
  it('answers a missing command with exit 2 and one line on stderr', async () => {
    const io = capture();
    expect(await main([], io)).toBe(2);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(/^cni-doctor: missing command: scan, .*\(try --help\)$/);
    expect(io.stdout).toEqual([]);
  });

  it('prints the usage on --help with exit 0', async () => {
    const io = capture();
    expect(await main(['--help'], io)).toBe(0);
    expect(io.stdout.join('\n')).toMatch(/cni-doctor scan/);
  });
});
