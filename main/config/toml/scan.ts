import { readKey, skipBlanks, skipComment, skipNewline } from './lexer';
import { TomlScanError } from './scan-error';
import { skipValue } from './value-skip';

// Structural pass over a TOML document: records where every table header and every
// top-level-of-its-table key/value sits. Values are only skipped, never built
// (@iarna/toml builds them), so this stays a small line-oriented state machine.

export interface ScannedHeader {
  path: string[];
  isArrayTable: boolean;
  /** Offsets of `[` … `]`/`]]`. */
  start: number;
  end: number;
  /** Whole header line including its line break. */
  lineStart: number;
  lineEnd: number;
  /** True for `[[x]]` itself and for any table below an array table (`[x.y]` after `[[x]]`). */
  insideArrayTable: boolean;
}

export interface ScannedKey {
  path: string[];
  /** Path of the enclosing table (the header the key sits under; [] for root keys). */
  tablePath: string[];
  /** The key's own segments as written (more than one for dotted keys). */
  segments: string[];
  /** Index into `headers` of the enclosing header, -1 for root keys. */
  headerIndex: number;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  lineStart: number;
  lineEnd: number;
  insideArrayTable: boolean;
}

export type ScanResult =
  | { ok: true; headers: ScannedHeader[]; keys: ScannedKey[] }
  | { ok: false; message: string; offset: number; fatal: boolean };

const BOM = '\uFEFF';

/** Requires only blanks and an optional comment before the line break; returns the next line's start. */
function finishLine(text: string, i: number, what: string): number {
  i = skipBlanks(text, i);
  if (text[i] === '#') i = skipComment(text, i);
  if (i >= text.length) return i;
  const next = skipNewline(text, i);
  if (next !== i) return next;
  // TOML line breaks are LF or CRLF; a lone CR is an error (old Mac files, binary data).
  throw new TomlScanError(
    text[i] === '\r' ? 'carriage return without line feed' : `unexpected text after ${what}`,
    i,
  );
}

/** Array-table paths seen so far, JSON-encoded so each header is checked in O(segments). */
type ArrayTableSet = Set<string>;

function belowArrayTable(path: readonly string[], arrayTables: ArrayTableSet): boolean {
  for (let n = 1; n < path.length; n++)
    if (arrayTables.has(JSON.stringify(path.slice(0, n)))) return true;
  return false;
}

function scanHeader(
  text: string,
  lineStart: number,
  start: number,
  arrayTables: ArrayTableSet,
): ScannedHeader {
  const isArrayTable = text[start + 1] === '[';
  const key = readKey(text, skipBlanks(text, start + (isArrayTable ? 2 : 1)));
  const close = skipBlanks(text, key.end);
  const closer = isArrayTable ? ']]' : ']';
  if (!text.startsWith(closer, close))
    throw new TomlScanError(`expected '${closer}' to close table header`, close);
  const end = close + closer.length;
  const insideArrayTable = isArrayTable || belowArrayTable(key.segments, arrayTables);
  if (isArrayTable) arrayTables.add(JSON.stringify(key.segments));
  return {
    path: key.segments,
    isArrayTable,
    start,
    end,
    lineStart,
    lineEnd: finishLine(text, end, 'table header'),
    insideArrayTable,
  };
}

function scanKeyValue(
  text: string,
  lineStart: number,
  keyStart: number,
  headers: ScannedHeader[],
): ScannedKey {
  const key = readKey(text, keyStart);
  const eq = skipBlanks(text, key.end);
  if (text[eq] !== '=') throw new TomlScanError("expected '=' after key", eq);
  const valueStart = skipBlanks(text, eq + 1);
  if (
    valueStart >= text.length ||
    text[valueStart] === '\n' ||
    text[valueStart] === '\r' ||
    text[valueStart] === '#'
  ) {
    throw new TomlScanError('expected a value after =', valueStart);
  }
  const valueEnd = skipValue(text, valueStart);
  const header = headers[headers.length - 1];
  const tablePath = header?.path ?? [];
  return {
    path: [...tablePath, ...key.segments],
    tablePath,
    segments: key.segments,
    headerIndex: headers.length - 1,
    keyStart,
    keyEnd: key.end,
    valueStart,
    valueEnd,
    lineStart,
    lineEnd: finishLine(text, valueEnd, 'value'),
    insideArrayTable: header?.insideArrayTable ?? false,
  };
}

export function scanToml(text: string): ScanResult {
  const headers: ScannedHeader[] = [];
  const keys: ScannedKey[] = [];
  const arrayTables: ArrayTableSet = new Set();
  let i = text.startsWith(BOM) ? 1 : 0;
  try {
    while (i < text.length) {
      const lineStart = i;
      const first = skipBlanks(text, i);
      const ch = text[first];
      if (ch === undefined) break;
      if (ch === '#' || ch === '\n' || ch === '\r') {
        i = finishLine(text, first, 'comment');
      } else if (ch === '[') {
        const header = scanHeader(text, lineStart, first, arrayTables);
        headers.push(header);
        i = header.lineEnd;
      } else {
        const kv = scanKeyValue(text, lineStart, first, headers);
        keys.push(kv);
        i = kv.lineEnd;
      }
    }
  } catch (err) {
    if (err instanceof TomlScanError)
      return { ok: false, message: err.message, offset: err.offset, fatal: err.fatal };
    throw err;
  }
  return { ok: true, headers, keys };
}
