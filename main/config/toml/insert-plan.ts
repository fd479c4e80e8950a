import type { TomlAnalysis } from './analyze';
import { samePath } from './edit-context';
import { formatKeyPath, formatKeySegment, type QuoteStyle } from './format';
import { detectEol, indentationAt, lineStartAt } from './lines';
import type { ScannedHeader } from './ast-scan';
import type { TomlPath } from './types';

// Decides where a new `key = value` line goes and builds the inserted text. Placement
// mirrors what a person would do: after the table's last assignment, or a new table at
// the end of the file when none exists yet.

export interface Insertion {
  offset: number;
  insert: string;
}

/** Inserted text must start on its own line even when the file lacks a final newline. */
function leadingBreak(text: string, offset: number, eol: string): string {
  return offset === text.length && text.length > 0 && !text.endsWith('\n') ? eol : '';
}

/** Extra indentation the file gives keys relative to their header (containerd 1.x nests by two spaces). */
function bodyIndentDelta(a: TomlAnalysis): string {
  for (const [idx, h] of a.headers.entries()) {
    const key = a.keys.find((k) => k.headerIndex === idx);
    if (!key) continue;
    const headerIndent = indentationAt(a.text, h.lineStart);
    const keyIndent = indentationAt(a.text, key.lineStart);
    return keyIndent.startsWith(headerIndent) ? keyIndent.slice(headerIndent.length) : '';
  }
  return '';
}

function afterLastKey(
  a: TomlAnalysis,
  headerIndex: number,
): { offset: number; indent: string } | undefined {
  const body = a.keys.filter((k) => k.headerIndex === headerIndex);
  const last = body[body.length - 1];
  return last && { offset: last.lineEnd, indent: indentationAt(a.text, last.lineStart) };
}

function intoTable(
  a: TomlAnalysis,
  headerIndex: number,
  header: ScannedHeader,
  line: (indent: string) => string,
): Insertion {
  const eol = detectEol(a.text);
  const spot = afterLastKey(a, headerIndex) ?? {
    offset: header.lineEnd,
    indent: indentationAt(a.text, header.lineStart) + bodyIndentDelta(a),
  };
  return {
    offset: spot.offset,
    insert: leadingBreak(a.text, spot.offset, eol) + line(spot.indent) + eol,
  };
}

/** Root keys must precede the first header; keep a comment block glued to that header below the new key. */
function intoRoot(a: TomlAnalysis, line: (indent: string) => string): Insertion {
  const eol = detectEol(a.text);
  const spot = afterLastKey(a, -1);
  if (spot)
    return { offset: spot.offset, insert: leadingBreak(a.text, spot.offset, eol) + line('') + eol };
  const first = a.headers[0];
  if (!first)
    return {
      offset: a.text.length,
      insert: leadingBreak(a.text, a.text.length, eol) + line('') + eol,
    };
  let start = first.lineStart;
  while (start > 0) {
    const prev = lineStartAt(a.text, start - 1);
    if (!a.text.slice(prev, start).trimStart().startsWith('#')) break;
    start = prev;
  }
  return { offset: start, insert: line('') + eol + eol };
}

function newTable(
  a: TomlAnalysis,
  parent: TomlPath,
  headerStyle: QuoteStyle,
  line: (indent: string) => string,
): Insertion {
  const eol = detectEol(a.text);
  const text = a.text;
  const lead = leadingBreak(text, text.length, eol);
  const closed = text + lead;
  const blankBefore = closed.length > 0 && !/(^|\n)[ \t]*\r?\n$/.test(closed) ? eol : '';
  return {
    offset: text.length,
    insert: `${lead}${blankBefore}[${formatKeyPath(parent, headerStyle)}]${eol}${line('')}${eol}`,
  };
}

/** Plans adding `path = literal`; the caller has already checked that the parent may take a new key. */
export function planInsertion(
  a: TomlAnalysis,
  path: TomlPath,
  literal: string,
  headerStyle: QuoteStyle,
): Insertion {
  const parent = path.slice(0, -1);
  const name = path[path.length - 1] ?? '';
  const line = (indent: string): string =>
    `${indent}${formatKeySegment(name, headerStyle)} = ${literal}`;
  if (parent.length === 0) return intoRoot(a, line);
  const idx = a.headers.findIndex((h) => !h.insideArrayTable && samePath(h.path, parent));
  const header = a.headers[idx];
  return header ? intoTable(a, idx, header, line) : newTable(a, parent, headerStyle, line);
}
