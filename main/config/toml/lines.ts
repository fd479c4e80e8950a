import type { TomlSpan } from './types';

/**
 * Offset → (line, column) lookup. Built once per document so span creation stays
 * O(log lines) instead of rescanning the text for each key.
 */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1))
      this.starts.push(i + 1);
  }

  /** 1-based line and column of an offset. */
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (this.starts[lo] ?? 0) + 1 };
  }

  span(start: number, end: number): TomlSpan {
    const a = this.position(start);
    const b = this.position(end);
    return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column, start, end };
  }
}

/** Offset of the first character of the line containing `offset`. */
export function lineStartAt(text: string, offset: number): number {
  return offset <= 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset just past the line break ending the line containing `offset` (or EOF). */
export function lineEndAt(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl === -1 ? text.length : nl + 1;
}

/** The line break the file already uses (first one wins); LF for single-line files. */
export function detectEol(text: string): '\n' | '\r\n' {
  const nl = text.indexOf('\n');
  return nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
}

/** Leading spaces/tabs of the line starting at `lineStart`. */
export function indentationAt(text: string, lineStart: number): string {
  let i = lineStart;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return text.slice(lineStart, i);
}
