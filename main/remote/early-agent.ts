/**
 * The node agent's client started by the launcher, before the CLI bundle is read: for `scan
 * --target container:ENGINE/NAME`, the engine client's own set-up (`podman exec` takes 60–80 ms
 * here before the agent runs) then overlaps loading the CLI instead of following it.
 *
 * It is only a head start: the container transport adopts it when it would have started exactly
 * the same command (adoptEarlyAgent), and anything else ends it — its input closed, so the agent
 * exits and its client removes its exec session (transport.ts endProgram), never killed.
 */
import type { spawn as Spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { parseTarget } from '../../shared/target';
import { AGENT_PROGRAM } from './agent-program';
import { endProgram, tiedToUs, wrapClient } from './client-process';
import { containerExecArgs } from './transports/container-args';
import type { NodeProcess } from './transport';

interface EarlyAgent {
  command: string;
  args: readonly string[];
  process: NodeProcess;
}

/** Shared by the launcher's copy of this module and the bundle's: one process, one slot. */
const SLOT = Symbol.for('cni-doctor.early-agent');
type Slot = { [SLOT]?: EarlyAgent };

/** The engine client and its arguments a command line will start the agent with, if it will. */
export function earlyAgentCommand(
  argv: readonly string[],
): { command: string; args: string[] } | undefined {
  if (argv[0] !== 'scan') return undefined;
  let target: string | undefined;
  try {
    const { values } = parseArgs({
      args: argv.slice(1),
      options: { target: { type: 'string' } },
      strict: false,
      allowPositionals: true,
    });
    target = typeof values.target === 'string' ? values.target : undefined;
  } catch {
    return undefined;
  }
  const parsed = target === undefined ? undefined : parseTarget(target);
  if (!parsed?.ok || parsed.target.kind !== 'container') return undefined;
  return { command: parsed.target.engine, args: containerExecArgs(parsed.target, AGENT_PROGRAM) };
}

/**
 * Starts the agent's client for this command line, if it will need one. child_process is
 * loaded only then: most commands run no client.
 */
export function startEarlyAgent(
  argv: readonly string[],
  spawn: () => typeof Spawn = () =>
    (createRequire(process.execPath)('node:child_process') as { spawn: typeof Spawn }).spawn,
): void {
  const slot = globalThis as Slot;
  if (slot[SLOT]) return;
  const early = earlyAgentCommand(argv);
  if (!early) return;
  const [cmd, args] = tiedToUs(early.command, early.args);
  const child = spawn()(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], shell: false });
  slot[SLOT] = { ...early, process: wrapClient(child, early.command) };
}

/** The early client, when it was started for exactly this command; else it is ended. */
export function adoptEarlyAgent(command: string, args: readonly string[]): NodeProcess | undefined {
  const slot = globalThis as Slot;
  const early = slot[SLOT];
  if (!early) return undefined;
  delete slot[SLOT];
  const same =
    early.command === command &&
    early.args.length === args.length &&
    early.args.every((a, i) => a === args[i]);
  if (same) return early.process;
  endProgram(early.process);
  return undefined;
}

/** Ends an early client nothing adopted (the command failed before it reached the node). */
export function endEarlyAgent(): void {
  const slot = globalThis as Slot;
  const early = slot[SLOT];
  delete slot[SLOT];
  if (early) endProgram(early.process);
}
