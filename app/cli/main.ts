/**
 * `cni-doctor` command line (cli.md). Exit codes: 0 ok, 3 findings at/above --fail-on, 2 the
 * command could not do its job — always with one clear line on stderr, never a stack trace.
 */
import { ArgError, type Command } from './command';
import { processIo, type Io } from './io';
import { scanCommand } from './commands/scan';
import { rulesCommand } from './commands/rules';
import { collectCommand } from './commands/collect';
import { fixCommand, historyCommand, undoCommand } from './commands/repair-commands';
import { serveCommand } from './commands/serve';
import { targetsCommand } from './commands/targets';
import { compareCommand } from './commands/compare';
import { explainCommand } from './commands/explain';
import { clusterCommand } from './commands/cluster';
import { daemonsetCommand } from './commands/daemonset';
import { nodeReportCommand } from './commands/node-report';
import { VERSION } from './version';
import { visible } from './visible';
import { inWords } from '../../shared/os-error';

/** Every subcommand, in the order `--help` lists them. Each declares its own flags. */
export const COMMANDS: readonly Command[] = [
  scanCommand,
  explainCommand,
  collectCommand,
  fixCommand,
  undoCommand,
  historyCommand,
  rulesCommand,
  serveCommand,
  targetsCommand,
  compareCommand,
  clusterCommand,
  daemonsetCommand,
  nodeReportCommand,
];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    `cni-doctor ${VERSION} — why is my pod stuck in sandbox creation?`,
    '',
    ...COMMANDS.map((c) => `  cni-doctor ${c.name.padEnd(width)}${c.summary}`),
    '',
    'cni-doctor COMMAND --help shows the options of one command.',
  ].join('\n');
}

export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const name = argv[0];
  if (!name) {
    // A usage error like any other (cli.md): one line on stderr, nothing on stdout.
    io.err(`cni-doctor: missing command: ${COMMANDS.map((c) => c.name).join(', ')} (try --help)`);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = argv[1] !== undefined ? COMMANDS.find((c) => c.name === argv[1]) : undefined;
    io.out(topic ? topic.help() : usage());
    return 0;
  }
  if (name === '--version') {
    io.out(VERSION);
    return 0;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    io.err(`cni-doctor: unknown command "${visible(name)}" (try --help)`);
    return 2;
  }
  try {
    return await cmd.invoke(argv.slice(1), io);
  } catch (e) {
    io.progress('');
    const msg =
      e instanceof ArgError ? `${visible(e.message)} (try cni-doctor ${name} --help)` : oneLine(e);
    io.err(`cni-doctor ${name}: ${msg}`);
    return 2;
  }
}

function oneLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  // Messages quote bundle entry names and paths: untrusted text on a terminal. Errno codes
  // become words ("EACCES: permission denied, mkdtemp …" read as a crash).
  return visible(inWords(m.split('\n')[0]?.slice(0, 500) ?? 'failed'));
}
