/**
 * Raised inside the scanner and always caught at its boundary (scanToml), so the
 * deeply nested lexing helpers need not thread error results through every call.
 * `fatal` marks input we refuse outright (limits, reserved key names) — such text must
 * never reach @iarna/toml.
 */
export class TomlScanError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly fatal = false,
  ) {
    super(message);
    this.name = 'TomlScanError';
  }
}
