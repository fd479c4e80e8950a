/**
 * The viewers' logic without React: which page holds a line, moving between search hits, the
 * parts of a line a search marks, how far a log's context may widen, and how a line is shown
 * (node text: every control character made visible, shared/visible-text.ts).
 */
import { visible } from '../../../shared/visible-text';

/** Lines asked per page of a file (the engine may send fewer to stay within its answer cap). */
export const FILE_PAGE_LINES = 500;
/** Lines shown above a line the viewer opens at, so it is seen in its context. */
export const LINES_ABOVE = 40;
/** Log context: shown first on each side, and added per "more" click. */
export const LOG_CONTEXT_START = 10;
export const LOG_CONTEXT_STEP = 20;

/** The first line of the page that shows `line` with some lines above it. */
export function pageStartFor(line: number): number {
  return Math.max(1, Math.floor(line) - LINES_ABOVE);
}

export function onPage(line: number, page: { from: number; lines: readonly unknown[] }): boolean {
  return line >= page.from && line < page.from + page.lines.length;
}

/** The next (dir 1) or previous (dir -1) hit index, wrapping around; -1 when there are none. */
export function stepHit(count: number, current: number, dir: 1 | -1): number {
  if (count <= 0) return -1;
  if (current < 0) return dir === 1 ? 0 : count - 1;
  return (((current + dir) % count) + count) % count;
}

/** "3 of 12 lines", "no line holds …", with the engine's cap said when it listed fewer. */
export function hitStatus(
  search: { query: string; lines: readonly number[]; total: number } | undefined,
  current: number,
): string {
  if (!search) return '';
  if (search.total === 0) return `No line holds "${visible(search.query)}"`;
  const listed = search.lines.length;
  const of = `${current + 1} of ${search.total} line${search.total === 1 ? '' : 's'}`;
  return listed < search.total ? `${of} (the first ${listed} can be stepped through)` : of;
}

export interface Segment {
  text: string;
  hit: boolean;
}

/** A line split where `query` occurs (case-insensitive), each part already made visible. */
export function segments(line: string, query: string): Segment[] {
  if (query === '') return [{ text: visible(line), hit: false }];
  const lower = line.toLowerCase();
  const q = query.toLowerCase();
  const out: Segment[] = [];
  let at = 0;
  for (let i = lower.indexOf(q); i !== -1 && q.length > 0; i = lower.indexOf(q, at)) {
    if (i > at) out.push({ text: visible(line.slice(at, i)), hit: false });
    out.push({ text: visible(line.slice(i, i + q.length)), hit: true });
    at = i + q.length;
  }
  if (at < line.length || out.length === 0) out.push({ text: visible(line.slice(at)), hit: false });
  return out;
}

/** Widening a log's context by one step, never past what the scan kept. */
export function widen(
  current: number,
  room: number,
  step: number = LOG_CONTEXT_STEP,
  max = 200,
): number {
  return Math.min(current + step, current + Math.max(0, room), max);
}

/** The separator of a node path as quoted (Windows paths hold `\`). */
export function joinNodePath(dir: string, name: string): string {
  const sep = /^[A-Za-z]:\\|\\/.test(dir) ? '\\' : '/';
  return dir.endsWith(sep) ? `${dir}${name}` : `${dir}${sep}${name}`;
}

/**
 * Scrolls a line to the middle of its own scroller only (scrollIntoView would also scroll the
 * window, pushing the viewer's heading and search out of sight).
 */
export function centerLine(container: HTMLElement | null, id: string): void {
  if (!container) return;
  const el = container.querySelector<HTMLElement>(`[id="${CSS.escape(id)}"]`);
  if (!el) return;
  const top = el.getBoundingClientRect().top - container.getBoundingClientRect().top;
  container.scrollTop += top - container.clientHeight / 2 + el.clientHeight / 2;
}
