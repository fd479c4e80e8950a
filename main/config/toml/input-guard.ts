import { MAX_TOML_BYTES } from './limits';
import { LineIndex } from './lines';
import type { TomlParseError } from './types';

// Cheap checks run before any parsing so oversized or binary input fails fast with a
// message a user can act on, instead of a confusing syntax error deep in the file.

// TOML forbids raw control characters other than tab, LF and CR anywhere in a document;
// finding one almost always means a binary or corrupted file.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]/;

export function checkInput(text: unknown): TomlParseError | undefined {
  if (typeof text !== 'string') return { message: 'TOML input must be a string' };
  // UTF-8 needs at least one byte per UTF-16 unit, so only compute the exact size when close.
  const bytes =
    text.length > MAX_TOML_BYTES
      ? text.length
      : text.length * 3 > MAX_TOML_BYTES
        ? Buffer.byteLength(text, 'utf8')
        : 0;
  if (bytes > MAX_TOML_BYTES) {
    return {
      message: `TOML input is too large (${bytes} bytes; limit is ${MAX_TOML_BYTES} bytes / 4 MiB)`,
    };
  }
  const bad = CONTROL_CHAR.exec(text);
  if (bad) {
    const code = bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    const { line, column } = new LineIndex(text).position(bad.index);
    const what = code === '0000' ? 'NUL byte' : `control character U+${code}`;
    return {
      message: `input is not a text TOML file: ${what} at line ${line}, column ${column}`,
      line,
      column,
    };
  }
  const cr = /\r(?!\n)/.exec(text);
  if (cr) {
    // TOML line breaks are LF or CRLF; a lone CR is an error (old Mac files, binary data).
    const { line, column } = new LineIndex(text).position(cr.index);
    return {
      message: `carriage return without line feed (line ${line}, column ${column})`,
      line,
      column,
    };
  }
  return undefined;
}
