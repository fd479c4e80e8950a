/**
 * The exact line handed to the shell for a script. node-powershell starts the shell with
 * `-Command -` and writes each command to its stdin, where PowerShell runs every line as soon as it
 * is complete and waits for a blank line after a multi-line statement. A multi-line script written
 * as-is could therefore run half, or hang the session; non-ASCII text would also pass through the
 * console input code page (docs/knowledge/windows-hns.md#getting-json-out-reliably, docs/knowledge/windows-node.md#node-powershell). So every script travels as ONE ASCII line: its
 * UTF-8 text in base64, turned back into a script block inside the shell.
 *
 * Running it as a script block also gives each call its own scope: variables and preference
 * settings of one script do not leak into the next call of the long-lived session, and script
 * blocks are not subject to the execution policy that blocks .ps1 files on client Windows.
 */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function toShellCommand(script: string): string {
  const b64 = Buffer.from(script, 'utf8').toString('base64');
  // The base64 alphabet has no quote, so it cannot end the single-quoted literal early.
  if (!BASE64.test(b64)) throw new Error('base64 encoding produced an unexpected character');
  return `& ([ScriptBlock]::Create([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('${b64}'))))`;
}

/** Inverse of toShellCommand, for tests and for the stand-in shell. */
export function fromShellCommand(line: string): string | undefined {
  const m =
    /^& \(\[ScriptBlock\]::Create\(\[Text\.Encoding\]::UTF8\.GetString\(\[Convert\]::FromBase64String\('([A-Za-z0-9+/=]*)'\)\)\)\)$/.exec(
      line,
    );
  return m ? Buffer.from(m[1] ?? '', 'base64').toString('utf8') : undefined;
}
