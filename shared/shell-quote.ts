/**
 * Command lines we print for people to paste (rerun hints, undo hints). A path from the command
 * line or the journal is quoted for a POSIX shell so that spaces, `$`, backquotes or `;` in it
 * stay part of the argument; control characters are shown as `$'\xNN'` so a hint never drives
 * the terminal.
 */
const SAFE = /^[A-Za-z0-9@%+=:,./_-]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_ALL = /[\x00-\x1f\x7f]/g;

export function shellQuote(arg: string): string {
  if (arg !== '' && SAFE.test(arg)) return arg;
  if (CONTROL.test(arg))
    return `$'${arg.replace(/[\\']/g, (c) => `\\${c}`).replace(CONTROL_ALL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}'`;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function shellLine(args: readonly string[]): string {
  return args.map(shellQuote).join(' ');
}
