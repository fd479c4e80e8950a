import type { Io } from '../io';
import type { ParsedArgs } from '../args';

export const SERVE_FLAGS = { port: 'value', bundle: 'value' } as const;

export async function serveCommand(_a: ParsedArgs, io: Io): Promise<number> {
  io.err('cni-doctor: serve is not available in this build yet');
  return 2;
}
