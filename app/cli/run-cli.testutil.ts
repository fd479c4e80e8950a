/** Runs the CLI in-process and returns its exit code and what it printed (tests only). */
import type { Io } from './io';
import { main } from './main';

export async function runCli(
  ...argv: string[]
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = {
    out: (t) => (out += `${t}\n`),
    err: (t) => (err += `${t}\n`),
    progress: () => undefined,
    isTty: false,
  };
  const code = await main(argv, io);
  return { code, out, err };
}
