/** A small, strict argument parser: unknown flags are errors (exit 2), not silently ignored. */
export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  flags: Map<string, string | true>;
}

export class ArgError extends Error {}

export function parseArgs(
  argv: readonly string[],
  spec: Record<string, 'bool' | 'value'>,
): ParsedArgs {
  const [command, ...rest] = argv;
  const flags = new Map<string, string | true>();
  const positionals: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as string;
    if (!a.startsWith('--')) {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    const kind = spec[name];
    if (!kind) throw new ArgError(`unknown option --${name} for "${command}"`);
    if (kind === 'bool') {
      if (eq > 0) throw new ArgError(`--${name} takes no value`);
      flags.set(name, true);
    } else {
      const value = eq > 0 ? a.slice(eq + 1) : rest[++i];
      if (value === undefined || value === '') throw new ArgError(`--${name} needs a value`);
      flags.set(name, value);
    }
  }
  return { command, positionals, flags };
}

export function str(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

export function bool(args: ParsedArgs, name: string): boolean {
  return args.flags.get(name) === true;
}
