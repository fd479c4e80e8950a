/**
 * node-powershell's PowerShell class with two behaviours pinned down (node-powershell 5.0.1 /
 * child-shell 5.0.0, read from node_modules):
 *
 * 1. The executable is exactly the one configured. Stock setExecutable lets the NODE_POWERSHELL
 *    environment variable override every caller and maps "pwsh-preview" to "pwsh".
 *
 * 2. Output delimiters end with a bare LF. child-shell frames each command by writing a random
 *    16-character delimiter to stdout and stderr before and after it, and decides the command is
 *    done when, in the newest chunk, it finds the second delimiter within the last
 *    `delimiter.length + 1` bytes whenever the whole buffer is that chunk. With Windows' CRLF the
 *    delimiter line is 18 bytes, so when both delimiter lines arrive in one read (a command with
 *    no output: common on stderr) the search window misses the second one and the call never
 *    completes. `Write("…`n")` makes the trailing delimiter line 17 bytes on every platform.
 *    (INFERRED from Shell.js readBulkFromOutput; reproduced with the stand-in shell in CRLF mode.)
 *
 * 3. Output is read in linear time (delimited-read.ts): child-shell's reader copies the whole
 *    answer on every pipe read, quadratic in the answer's size.
 */
import type { Readable } from 'node:stream';
import { PowerShell } from 'node-powershell';
import { readDelimited } from './delimited-read';

export type PinnedShellClass = new (
  options: ConstructorParameters<typeof PowerShell>[0],
) => PowerShell;

/**
 * `leadingArgs` go before node-powershell's own options: `kubectl exec -i POD -- powershell.exe`
 * then gets `-NoLogo -NoProfile -NonInteractive -NoExit -Command -` after it. child-shell builds
 * that list in a method its typings mark private, so it is wrapped on the prototype.
 */
export function pinnedShellClass(
  executable: string,
  leadingArgs: readonly string[] = [],
): PinnedShellClass {
  const cls = class PinnedPowerShell extends PowerShell {
    protected override setExecutable(): string {
      return executable;
    }
    protected override writeToOutput(input: string): string {
      return `[Console]::Out.Write("${input}\`n")`;
    }
    protected override writeToError(input: string): string {
      return `[Console]::Error.Write("${input}\`n")`;
    }
  };
  // readBulkFromOutput is private in child-shell's typings, so it is replaced on the prototype.
  Object.defineProperty(cls.prototype, 'readBulkFromOutput', {
    value(stream: Readable, delimiter: string): Promise<Buffer> {
      return readDelimited(stream, delimiter);
    },
  });
  if (leadingArgs.length > 0) {
    const proto = PowerShell.prototype as unknown as {
      setExecutableOptions: (o: unknown) => string[];
    };
    const own = proto.setExecutableOptions;
    Object.defineProperty(cls.prototype, 'setExecutableOptions', {
      value(this: unknown, o: unknown): string[] {
        return [...leadingArgs, ...own.call(this, o)];
      },
    });
  }
  return cls;
}
