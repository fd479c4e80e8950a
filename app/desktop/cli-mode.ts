/**
 * `<app> --cli <command …>`: the packaged app doubles as the engine's command line, because its
 * Electron fuses forbid running it as plain Node (runAsNode off). The elevated repair run uses
 * this. On Windows, `--result-pipe NAME` sends the command's stdout to the named pipe the
 * unelevated app is listening on (UAC gives no stdout back); the name must be one the app makes
 * (`\\.\pipe\cni-doctor-elevated-<32 hex>`), so an elevated run never writes anywhere else — and
 * never to a file, whose path could lead through a planted link.
 */
import { connect } from 'node:net';
import { main } from '../cli/main';
import { processIo, type Io } from '../cli/io';

/** Electron/Chromium switches that may precede ours and are not the CLI's business. */
const HOST_SWITCHES = /^--(no-sandbox|ozone-platform=.*|enable-logging|inspect.*)$/;

export const RESULT_PIPE_PATTERN = /^\\\\\.\\pipe\\cni-doctor-elevated-[0-9a-f]{32}$/;

export type CliInvocation = { args: string[]; resultPipe?: string } | { error: string };

export function cliArgs(argv: readonly string[]): CliInvocation | undefined {
  const i = argv.indexOf('--cli');
  if (i === -1) return undefined;
  const rest = argv.slice(i + 1).filter((a) => !HOST_SWITCHES.test(a));
  if (rest[0] !== '--result-pipe') return { args: rest };
  const pipe = rest[1] ?? '';
  if (!RESULT_PIPE_PATTERN.test(pipe))
    return { error: '--result-pipe must name a cni-doctor-elevated pipe' };
  return { args: rest.slice(2), resultPipe: pipe };
}

function sendToPipe(pipe: string, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(pipe, () => socket.end(text, () => resolve()));
    socket.on('error', reject);
  });
}

export async function runCliMode(parsed: CliInvocation): Promise<number> {
  const base = processIo();
  if ('error' in parsed) {
    base.err(`cni-doctor: ${parsed.error}`);
    return 2;
  }
  const out: string[] = [];
  const io: Io = parsed.resultPipe ? { ...base, out: (t) => void out.push(t), isTty: false } : base;
  const code = await main(parsed.args, io);
  if (parsed.resultPipe) await sendToPipe(parsed.resultPipe, out.join('\n'));
  return code;
}
