/** fix / undo / history (cli.md). Wired to the repair engine in main/repairs. */
import type { Io } from '../io';
import type { ParsedArgs } from '../args';

const notYet = async (_a: ParsedArgs, io: Io): Promise<number> => {
  io.err('cni-doctor: repairs are not available in this build yet');
  return 2;
};

export const REPAIR_COMMANDS = {
  fix: { flags: { yes: 'bool', json: 'bool', 'state-dir': 'value' } as Record<string, 'bool' | 'value'>, run: notYet },
  undo: { flags: { yes: 'bool', 'state-dir': 'value' } as Record<string, 'bool' | 'value'>, run: notYet },
  history: { flags: { json: 'bool', 'state-dir': 'value' } as Record<string, 'bool' | 'value'>, run: notYet },
};
