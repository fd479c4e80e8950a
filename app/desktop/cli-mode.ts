/**
 * `<app> --cli <command …>`: the packaged app doubles as the engine's command line, because its
 * Electron fuses forbid running it as plain Node (runAsNode off). The elevated repair run uses this;
 * `--result-file F` makes the command's stdout go to F (UAC gives no stdout back).
 */
import { writeFileSync } from 'node:fs';
import { main } from '../cli/main';
import { processIo, type Io } from '../cli/io';

/** Electron/Chromium switches that may precede ours and are not the CLI's business. */
const HOST_SWITCHES = /^--(no-sandbox|ozone-platform=.*|enable-logging|inspect.*)$/;

export function cliArgs(
  argv: readonly string[],
): { args: string[]; resultFile?: string } | undefined {
  const i = argv.indexOf('--cli');
  if (i === -1) return undefined;
  const rest = argv.slice(i + 1).filter((a) => !HOST_SWITCHES.test(a));
  if (rest[0] === '--result-file' && rest[1]) return { args: rest.slice(2), resultFile: rest[1] };
  return { args: rest };
}

export async function runCliMode(parsed: { args: string[]; resultFile?: string }): Promise<number> {
  const base = processIo();
  const out: string[] = [];
  const io: Io = parsed.resultFile ? { ...base, out: (t) => void out.push(t), isTty: false } : base;
  const code = await main(parsed.args, io);
  if (parsed.resultFile) writeFileSync(parsed.resultFile, out.join('\n'), { mode: 0o644 });
  return code;
}
