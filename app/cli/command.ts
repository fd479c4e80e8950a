/**
 * One subcommand, declared as data: its flags (with the help text), its operand, and what it runs.
 * `node:util` parseArgs splits the arguments; this module adds what the CLI contract (docs/cli.md)
 * asks on top: unknown flags are errors, a value-taking flag needs a value, every subcommand answers
 * `--help`, and every usage error is one line on stderr with exit 2.
 *
 * To add a flag, add it to the command's `flags` (or to a shared group below): parsing, the typed
 * value the command receives and `--help` all follow from that one entry.
 */
import { parseArgs } from 'node:util';
import type { Io } from './io';

export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  /** The value's placeholder in help, e.g. `PATH` (string flags only). */
  readonly value?: string;
  readonly help: string;
}
export type Flags = Readonly<Record<string, FlagSpec>>;

/** The parsed flags: a string flag's value, `true` for a boolean flag given, absent otherwise. */
export type FlagValues<F extends Flags> = {
  readonly [K in keyof F]?: F[K]['type'] extends 'string' ? string : true;
};

export interface Operand {
  /** Its placeholder in usage, e.g. `REPAIR_ID`. */
  readonly name: string;
  /** Where a user finds one, e.g. "see `cni-doctor scan`". */
  readonly help: string;
}

export interface Invocation<F extends Flags, O extends Operand | undefined> {
  readonly command: string;
  readonly flags: FlagValues<F>;
  /** The one operand, for a command that takes one (checked before `run`). */
  readonly operand: O extends Operand ? string : undefined;
}

export interface CommandSpec<F extends Flags, O extends Operand | undefined> {
  readonly name: string;
  /** One line, shown in `cni-doctor --help` and at the top of the command's own help. */
  readonly summary: string;
  /** More lines for the command's `--help` (exit codes, what the output is). */
  readonly details?: string;
  readonly operand?: O;
  readonly flags: F;
  run(args: Invocation<F, O>, io: Io): Promise<number>;
}

/** A usage error: main prints it as one line, adds "(try … --help)" and exits 2. */
export class ArgError extends Error {}

/** A declared command, its generic types erased so main can hold all of them in one table. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  help(): string;
  /** Parses `argv` (the words after the command name) and runs; throws ArgError on bad usage. */
  invoke(argv: readonly string[], io: Io): Promise<number>;
}

const HELP: FlagSpec = { type: 'boolean', help: 'show this help' };

export function defineCommand<const F extends Flags, O extends Operand | undefined = undefined>(
  spec: CommandSpec<F, O>,
): Command {
  const usage = usageLine(spec);
  const help = (): string => helpText(spec, usage);
  return {
    name: spec.name,
    summary: spec.summary,
    usage,
    help,
    async invoke(argv, io) {
      const parsed = parse(spec, argv);
      if (parsed === 'help') {
        io.out(help());
        return 0;
      }
      return spec.run(parsed, io);
    },
  };
}

function parse<F extends Flags, O extends Operand | undefined>(
  spec: CommandSpec<F, O>,
  argv: readonly string[],
): Invocation<F, O> | 'help' {
  const options = Object.fromEntries(
    Object.entries(spec.flags).map(([name, f]) => [name, { type: f.type }]),
  );
  // strict: false so that every mistake reaches the checks below, which word it the way the
  // contract does; the tokens say exactly what was written (inline value or not).
  const { tokens, positionals } = parseArgs({
    args: [...argv],
    options: { ...options, help: { type: 'boolean', short: 'h' } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: Record<string, string | true> = {};
  const options_ = tokens.filter((t) => t.kind === 'option');
  if (options_.some((t) => t.name === 'help')) return 'help';
  for (const t of options_) {
    const flag = Object.hasOwn(spec.flags, t.name) ? spec.flags[t.name] : undefined;
    if (!flag) throw new ArgError(`unknown option ${t.rawName} for "${spec.name}"`);
    if (flag.type === 'boolean') {
      if (t.value !== undefined) throw new ArgError(`--${t.name} takes no value`);
      values[t.name] = true;
    } else {
      // `--bundle --json` means a forgotten value, not a bundle called "--json"; a value that
      // starts with '-' can still be given inline: --cri-timeout=-5.
      const forgotten = !t.inlineValue && t.value?.startsWith('-') === true;
      if (t.value === undefined || t.value === '' || forgotten)
        throw new ArgError(`--${t.name} needs a value`);
      values[t.name] = t.value;
    }
  }
  const wanted = spec.operand ? 1 : 0;
  if (positionals.length > wanted)
    throw new ArgError(`unexpected argument "${positionals[wanted] ?? ''}"`);
  if (spec.operand && positionals.length === 0)
    throw new ArgError(
      `${spec.name} needs exactly one ${spec.operand.name} (${spec.operand.help})`,
    );
  return {
    command: spec.name,
    flags: values as FlagValues<F>,
    operand: positionals[0] as Invocation<F, O>['operand'],
  };
}

function flagWords(name: string, f: FlagSpec): string {
  return f.type === 'string' ? `--${name} ${f.value ?? 'VALUE'}` : `--${name}`;
}

function usageLine(spec: CommandSpec<Flags, Operand | undefined>): string {
  const parts = [`cni-doctor ${spec.name}`];
  if (spec.operand) parts.push(spec.operand.name);
  for (const [name, f] of Object.entries(spec.flags)) parts.push(`[${flagWords(name, f)}]`);
  return parts.join(' ');
}

function helpText(spec: CommandSpec<Flags, Operand | undefined>, usage: string): string {
  const rows: [string, string][] = Object.entries(spec.flags).map(([n, f]) => [
    flagWords(n, f),
    f.help,
  ]);
  if (spec.operand) rows.unshift([spec.operand.name, spec.operand.help]);
  rows.push(['-h, --help', HELP.help]);
  const width = Math.max(...rows.map(([w]) => w.length)) + 2;
  return [
    `cni-doctor ${spec.name}: ${spec.summary}`,
    '',
    `usage: ${usage}`,
    '',
    ...rows.map(([w, h]) => `  ${w.padEnd(width)}${h}`),
    ...(spec.details ? ['', spec.details] : []),
  ].join('\n');
}

// Flags several commands share: one definition, so their help reads the same everywhere.
export const ROOT_FLAG = {
  root: {
    type: 'string',
    value: 'DIR',
    help: 'work on a Linux node disk mounted at DIR, as if DIR were /',
  },
} as const satisfies Flags;

export const STATE_DIR_FLAG = {
  'state-dir': {
    type: 'string',
    value: 'DIR',
    help: 'keep the journal and backups in DIR (default /var/lib/cni-doctor, with --root under it)',
  },
} as const satisfies Flags;

export const CRI_TIMEOUT_FLAG = {
  'cri-timeout': {
    type: 'string',
    value: 'MS',
    help: 'deadline of every CRI call in milliseconds (default 3000)',
  },
} as const satisfies Flags;

export const JSON_FLAG = {
  json: { type: 'boolean', help: 'print one JSON document on stdout (docs/cli.md)' },
} as const satisfies Flags;

/** The value of --cri-timeout, checked: a positive number of milliseconds. */
export function criTimeoutMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!(Number(value) > 0))
    throw new ArgError('--cri-timeout needs a positive number of milliseconds');
  return Number(value);
}
