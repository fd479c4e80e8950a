import { describe, expect, it } from 'vitest';
import { ArgError, defineCommand, type FlagValues } from './command';
import { captureIo } from '../../fixtures/capture-io';

const FLAGS = {
  out: { type: 'string', value: 'PATH', help: 'where to write' },
  json: { type: 'boolean', help: 'JSON' },
} as const;

/** A command that hands back what it was given, so each test sees the parse result. */
interface Seen {
  flags: FlagValues<typeof FLAGS>;
  operand: string | undefined;
}

function probe(operand?: { name: string; help: string }) {
  const box: { seen?: Seen } = {};
  const cmd = defineCommand({
    name: 'probe',
    summary: 'a test command',
    flags: FLAGS,
    ...(operand && { operand }),
    async run(args) {
      box.seen = { flags: args.flags, operand: args.operand };
      return 7;
    },
  });
  return {
    cmd,
    run: async (argv: string[]): Promise<{ code: number; seen: Seen | undefined }> => {
      delete box.seen;
      const code = await cmd.invoke(argv, captureIo());
      return { code, seen: box.seen };
    },
  };
}

async function usageError(run: Promise<unknown>): Promise<string> {
  const e = await run.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ArgError);
  return (e as ArgError).message;
}

describe('defineCommand', () => {
  it('hands the command typed values: a string, true for a boolean given, nothing when absent', async () => {
    const { run } = probe();
    expect(await run(['--out', 'a.tar.gz', '--json'])).toEqual({
      code: 7,
      seen: { flags: { out: 'a.tar.gz', json: true }, operand: undefined },
    });
    expect((await run(['--out=b'])).seen?.flags).toEqual({ out: 'b' });
    expect((await run([])).seen?.flags).toEqual({});
  });

  it('takes a value starting with "-" only inline, so a forgotten value is not a flag swallowed', async () => {
    const { run } = probe();
    expect((await run(['--out=-5'])).seen?.flags.out).toBe('-5');
    expect(await usageError(run(['--out', '--json']))).toBe('--out needs a value');
    expect(await usageError(run(['--out']))).toBe('--out needs a value');
    expect(await usageError(run(['--out=']))).toBe('--out needs a value');
  });

  it('refuses unknown flags, values on booleans and stray arguments', async () => {
    const { run } = probe();
    expect(await usageError(run(['--frobnicate']))).toBe('unknown option --frobnicate for "probe"');
    expect(await usageError(run(['-x']))).toBe('unknown option -x for "probe"');
    expect(await usageError(run(['--json=yes']))).toBe('--json takes no value');
    expect(await usageError(run(['extra']))).toBe('unexpected argument "extra"');
  });

  it('wants exactly one operand when it declares one', async () => {
    const { run } = probe({ name: 'ID', help: 'an id from somewhere' });
    expect((await run(['abc', '--json'])).seen).toEqual({
      flags: { json: true },
      operand: 'abc',
    });
    expect(await usageError(run([]))).toBe('probe needs exactly one ID (an id from somewhere)');
    expect(await usageError(run(['a', 'b']))).toBe('unexpected argument "b"');
  });

  it('answers --help and -h with the help, before judging the other arguments', async () => {
    const { cmd } = probe({ name: 'ID', help: 'an id' });
    for (const argv of [['--help'], ['-h'], ['--frobnicate', '--help']]) {
      const io = captureIo();
      expect(await cmd.invoke(argv, io)).toBe(0);
      expect(io.stdout.join('\n')).toBe(cmd.help());
    }
    expect(cmd.help()).toMatch(
      /^cni-doctor probe: a test command\n\nusage: cni-doctor probe ID \[--out PATH\] \[--json\]\n/,
    );
    expect(cmd.help()).toMatch(/\n {2}--out PATH +where to write\n/);
    expect(cmd.help()).toMatch(/\n {2}-h, --help +show this help$/);
  });
});
