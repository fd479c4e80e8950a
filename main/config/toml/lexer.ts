import { MAX_KEY_SEGMENTS } from './limits';
import { TomlScanError } from './scan-error';

// Low-level TOML lexing on raw offsets. Every function takes the text and a start
// offset and returns where the token ends, so callers can keep exact spans.

// @iarna/toml creates tables as plain `{}` and looks up keys with `obj[key] || Table()`,
// so a key named after an Object.prototype member (`toString.x = 1`, `[hasOwnProperty]
// call = 1`) makes it write onto shared built-ins. Such keys never occur in real
// runtime configs, so we refuse them before the text reaches the library.
const RESERVED_KEYS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

// Character classes by code unit: these run once per input character, where a regex
// test per character costs several times more on multi-MiB files.
function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** A-Z a-z 0-9 _ - */
function isBareKeyCode(c: number): boolean {
  return isAlnum(c) || c === 95 || c === 45;
}

/** Characters of numbers, booleans and dates: bare-key characters plus + . : */
function isScalarCode(c: number): boolean {
  return isBareKeyCode(c) || c === 43 || c === 46 || c === 58;
}

/** Skips spaces and tabs. */
export function skipBlanks(text: string, i: number): number {
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}

/** Offset of the line break ending a comment that starts at `i` (the `\r` of CRLF). */
export function skipComment(text: string, i: number): number {
  const nl = text.indexOf('\n', i);
  if (nl === -1) return text.length;
  return text[nl - 1] === '\r' ? nl - 1 : nl;
}

/** Consumes a line break at `i` (LF or CRLF); returns `i` unchanged when there is none. */
export function skipNewline(text: string, i: number): number {
  if (text[i] === '\n') return i + 1;
  if (text[i] === '\r' && text[i + 1] === '\n') return i + 2;
  return i;
}

/** Skips blanks, line breaks and comments — the filler allowed between array elements. */
export function skipFiller(text: string, i: number): number {
  for (;;) {
    i = skipBlanks(text, i);
    if (text[i] === '#') i = skipComment(text, i);
    const next = skipNewline(text, i);
    if (next === i) return i;
    i = next;
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  b: '\b',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
  '"': '"',
  '\\': '\\',
};

/** End of a single-line basic string starting at the opening `"` (value not decoded). */
export function skipBasicString(text: string, start: number): number {
  for (let i = start + 1; ; i++) {
    const ch = text[i];
    if (ch === undefined || ch === '\n' || ch === '\r')
      throw new TomlScanError('unterminated string', start);
    if (ch === '"') return i + 1;
    if (ch === '\\') i++;
  }
}

/** Reads and decodes a single-line basic string starting at the opening `"` (used for keys). */
export function readBasicString(text: string, start: number): { end: number; value: string } {
  let value = '';
  let i = start + 1;
  for (;;) {
    const ch = text[i];
    if (ch === undefined || ch === '\n' || ch === '\r')
      throw new TomlScanError('unterminated string', start);
    if (ch === '"') return { end: i + 1, value };
    if (ch !== '\\') {
      value += ch;
      i++;
      continue;
    }
    const esc = text[i + 1] ?? '';
    const simple = ESCAPES[esc];
    if (simple !== undefined) {
      value += simple;
      i += 2;
      continue;
    }
    const width = esc === 'u' ? 4 : esc === 'U' ? 8 : 0;
    const hex = text.slice(i + 2, i + 2 + width);
    const code =
      width > 0 && /^[0-9A-Fa-f]+$/.test(hex) && hex.length === width ? parseInt(hex, 16) : -1;
    if (code < 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      throw new TomlScanError('invalid escape sequence in string', i);
    }
    value += String.fromCodePoint(code);
    i += 2 + width;
  }
}

/** Reads a single-line literal string starting at the opening `'`. */
export function readLiteralString(text: string, start: number): { end: number; value: string } {
  const close = text.indexOf("'", start + 1);
  const line = text.slice(start + 1, close === -1 ? text.length : close);
  if (close === -1 || line.includes('\n') || line.includes('\r'))
    throw new TomlScanError('unterminated string', start);
  return { end: close + 1, value: line };
}

/**
 * Skips a multi-line string (`"""` or `'''`) starting at its opening delimiter. Up to two
 * quote characters directly before the closing delimiter belong to the content.
 */
export function skipMultilineString(text: string, start: number): number {
  const q = text[start] ?? '"';
  let i = start + 3;
  for (;;) {
    const ch = text[i];
    if (ch === undefined) throw new TomlScanError('unterminated multi-line string', start);
    if (ch === '\\' && q === '"') {
      i += 2;
      continue;
    }
    if (ch === q && text[i + 1] === q && text[i + 2] === q) {
      let end = i + 3;
      while (end < i + 5 && text[end] === q) end++;
      return end;
    }
    i++;
  }
}

export interface KeyToken {
  segments: string[];
  end: number;
}

/** Reads a (possibly dotted, possibly quoted) key starting at `start`. */
export function readKey(text: string, start: number): KeyToken {
  const segments: string[] = [];
  let i = start;
  for (;;) {
    const segStart = i;
    const ch = text[i];
    let segment: string;
    if (ch === '"') {
      if (text.startsWith('"""', i))
        throw new TomlScanError('multi-line strings cannot be keys', i);
      const s = readBasicString(text, i);
      segment = s.value;
      i = s.end;
    } else if (ch === "'") {
      if (text.startsWith("'''", i))
        throw new TomlScanError('multi-line strings cannot be keys', i);
      const s = readLiteralString(text, i);
      segment = s.value;
      i = s.end;
    } else {
      while (i < text.length && isBareKeyCode(text.charCodeAt(i))) i++;
      if (i === segStart) throw new TomlScanError('expected a key', segStart);
      segment = text.slice(segStart, i);
    }
    if (RESERVED_KEYS.has(segment)) {
      throw new TomlScanError(
        `key "${segment}" is not supported (reserved JavaScript property name)`,
        segStart,
        true,
      );
    }
    segments.push(segment);
    if (segments.length > MAX_KEY_SEGMENTS) {
      throw new TomlScanError(`key has more than ${MAX_KEY_SEGMENTS} dotted segments`, start, true);
    }
    const afterBlanks = skipBlanks(text, i);
    if (text[afterBlanks] !== '.') return { segments, end: i };
    i = skipBlanks(text, afterBlanks + 1);
  }
}

/**
 * End of a bare scalar (number, boolean, date/time). Only the extent matters here;
 * @iarna/toml validates the literal itself.
 */
export function skipScalar(text: string, start: number): number {
  let i = start;
  for (;;) {
    while (i < text.length && isScalarCode(text.charCodeAt(i))) i++;
    // RFC 3339 allows a space between date and time: `1979-05-27 07:32:00Z`.
    const isDate = /^\d{4}-\d{2}-\d{2}$/.test(text.slice(start, i));
    if (isDate && text[i] === ' ' && /^\d{2}:/.test(text.slice(i + 1, i + 4))) {
      i++;
      continue;
    }
    break;
  }
  if (i === start) throw new TomlScanError('expected a value', start);
  return i;
}
