import TOML from '@iarna/toml';
import type { TomlParseError } from './types';
import type { TomlTable } from './value-tree';

// Thin wrapper over @iarna/toml that turns its exceptions into structured errors.
// Only call it on text scanToml accepted (see the reserved-key note in lexer.ts).

interface IarnaError {
  message: string;
  line?: unknown;
  col?: unknown;
}

function isIarnaError(err: unknown): err is IarnaError {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { message?: unknown }).message === 'string'
  );
}

/** The library's message without its " at row R, col C, pos P:" suffix and source excerpt. */
function cleanMessage(message: string): string {
  const first = message.split('\n', 1)[0] ?? '';
  return first.replace(/ at row \d+, col \d+, pos \d+:?$/, '').slice(0, 300) || 'invalid TOML';
}

export function parseValues(
  text: string,
): { ok: true; value: TomlTable } | { ok: false; error: TomlParseError } {
  try {
    return { ok: true, value: TOML.parse(text) };
  } catch (err) {
    if (!isIarnaError(err)) return { ok: false, error: { message: 'invalid TOML' } };
    const error: TomlParseError = { message: cleanMessage(err.message) };
    // @iarna/toml reports 0-based row/col.
    if (typeof err.line === 'number') error.line = err.line + 1;
    if (typeof err.col === 'number') error.column = err.col + 1;
    return { ok: false, error };
  }
}
