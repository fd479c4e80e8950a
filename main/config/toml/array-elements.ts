import { lineEndAt, lineStartAt } from './lines';

// Finds the text range to delete when one element leaves a written array, so that the
// remaining elements, comments and line layout stay exactly as they were. The element spans
// come from the parser (ScannedKey.elements).

/** Past spaces and tabs. */
function skipBlanks(text: string, i: number): number {
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}

/** Past a `#` comment, up to (not including) its line break. */
function skipComment(text: string, i: number): number {
  const nl = text.indexOf('\n', i);
  const end = nl === -1 ? text.length : nl;
  return text[end - 1] === '\r' ? end - 1 : end;
}

/** Past one LF or CRLF at `i`, or `i` itself when there is none. */
function skipNewline(text: string, i: number): number {
  if (text[i] === '\n') return i + 1;
  return text[i] === '\r' && text[i + 1] === '\n' ? i + 2 : i;
}

export interface ElementSpan {
  start: number;
  end: number;
}

function onOneLine(text: string, from: number, to: number): boolean {
  return !text.slice(from, to).includes('\n');
}

/** End of `element,` plus the blanks after it, when the comma sits on the same line. */
function afterOwnComma(text: string, end: number): number | undefined {
  const comma = skipBlanks(text, end);
  return text[comma] === ',' ? skipBlanks(text, comma + 1) : undefined;
}

/** True when the element's line holds nothing else but an optional comma and comment. */
function alone(text: string, el: ElementSpan): boolean {
  const lineStart = lineStartAt(text, el.start);
  if (text.slice(lineStart, el.start).trim() !== '') return false;
  let i = afterOwnComma(text, el.end) ?? skipBlanks(text, el.end);
  if (text[i] === '#') i = skipComment(text, i);
  return i >= text.length || skipNewline(text, i) !== i;
}

/** Range to delete so that element `k` disappears and the array stays well formed. */
export function removalRange(text: string, elements: ElementSpan[], k: number): ElementSpan {
  const el = elements[k];
  if (!el) throw new RangeError('element index out of range');
  const prev = elements[k - 1];
  const next = elements[k + 1];
  // `"cri", "x"` → `"x"`: take the element and the separator after it.
  if (next && onOneLine(text, el.end, next.start)) return { start: el.start, end: next.start };
  // `"x", "cri"` → `"x"`: take the separator before it (a trailing comma after `el` stays).
  if (prev && onOneLine(text, prev.end, el.start)) return { start: prev.end, end: el.end };
  // One element per line: drop the whole line, including any comment about it.
  if (alone(text, el)) return { start: lineStartAt(text, el.start), end: lineEndAt(text, el.end) };
  const afterComma = afterOwnComma(text, el.end);
  if (afterComma !== undefined) return { start: el.start, end: afterComma };
  if (prev) return { start: prev.end, end: el.end };
  return { start: el.start, end: el.end };
}
