/**
 * The lines around each matched log line, kept from the very bytes the scan judged, so the UI's
 * log viewer shows a match in its context without reading the node again (a live log moves on;
 * a fresh read would number its lines differently). A log's tail can be 64 MiB: only windows of
 * `radius` lines around the matches are kept, each line capped, so a scan holds little.
 *
 * Line numbers are the scanner's (line-scanner.ts): the bytes are normalised to UTF-8 as the
 * scanner does (encoding.ts), lines end at `\n`, a `\r` before it is dropped, and a last line
 * without `\n` still counts. Line 1 of a tail is the (possibly partial) first line of the tail.
 */
import { Utf8Normalizer } from './encoding';
import { scanLog } from './scanner';
import type { LogSignature } from './types';

export interface KeptWindow {
  /** Line number of `lines[0]`. */
  from: number;
  lines: string[];
}

export interface KeptLog {
  path: string;
  /** Lines in the part the scan read. */
  totalLines: number;
  /** Sorted, not overlapping. */
  windows: KeptWindow[];
  /** Lines kept shorter than they are (the viewer says so): line number → bytes dropped. */
  cut: Record<number, number>;
}

export const KEEP_LIMITS = {
  /** Lines kept on each side of a matched line. */
  radius: 200,
  /** Characters kept of one line (the scanner quotes 2,000 of a match). */
  lineChars: 4000,
  /** Characters kept of one log in all (the windows nearest the newest matches win). */
  logChars: 8 * 1024 * 1024,
} as const;

async function* once(data: Uint8Array): AsyncIterable<Uint8Array> {
  yield data;
}

function toUtf8(data: Uint8Array): Buffer {
  const n = new Utf8Normalizer();
  const a = n.push(data);
  const b = n.end();
  const joined = b.length === 0 ? a : Buffer.concat([a, b]);
  return Buffer.isBuffer(joined)
    ? joined
    : Buffer.from(joined.buffer, joined.byteOffset, joined.byteLength);
}

/** Start offset of every line (plus one past the end), as the scanner counts lines. */
function lineStarts(buf: Buffer): Float64Array {
  let count = 0;
  for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, i + 1)) count++;
  const endsOpen = buf.length > 0 && buf[buf.length - 1] !== 0x0a;
  const total = count + (endsOpen ? 1 : 0);
  const starts = new Float64Array(total + 1);
  let n = 0;
  let at = 0;
  while (n < total) {
    starts[n++] = at;
    const nl = buf.indexOf(0x0a, at);
    at = nl === -1 ? buf.length : nl + 1;
  }
  starts[total] = buf.length + (endsOpen ? 1 : 0);
  return starts;
}

/** Merges [from, to] ranges (1-based, inclusive), sorted. */
function mergeRanges(ranges: [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/** Keeps the windows around `matchLines` from a log's bytes (the part the scan read). */
export function keepWindows(
  path: string,
  data: Uint8Array,
  matchLines: readonly number[],
  limits: { radius: number; lineChars: number; logChars: number } = KEEP_LIMITS,
): KeptLog {
  const buf = toUtf8(data);
  const starts = lineStarts(buf);
  const totalLines = starts.length - 1;
  const wanted = matchLines.filter((l) => l >= 1 && l <= totalLines);
  const ranges = mergeRanges(
    wanted.map((l) => [Math.max(1, l - limits.radius), Math.min(totalLines, l + limits.radius)]),
  );
  const cut: Record<number, number> = {};
  const windows: KeptWindow[] = [];
  let budget = limits.logChars;
  // Newest first: when the budget runs out, the older windows are the ones left out.
  for (const [from, to] of ranges.reverse()) {
    if (budget <= 0) break;
    const lines: string[] = [];
    for (let l = from; l <= to; l++) {
      const start = starts[l - 1] as number;
      let end = Math.min(buf.length, (starts[l] as number) - 1);
      if (end > start && buf[end - 1] === 0x0d) end--;
      let text = buf.toString('utf8', start, Math.min(end, start + limits.lineChars * 4));
      if (text.length > limits.lineChars || end - start > limits.lineChars * 4) {
        const keep = text.slice(0, limits.lineChars);
        cut[l] = Math.max(1, end - start - Buffer.byteLength(keep));
        text = keep;
      }
      lines.push(text);
      budget -= text.length;
    }
    windows.push({ from, lines });
  }
  windows.reverse();
  return { path, totalLines, windows, cut };
}

/**
 * The lines around every match the scanner finds in `data` — the same scanner and signatures as
 * the scan, over the same bytes, so the matched lines are the scan's.
 */
export async function keepMatchContext(
  path: string,
  data: Uint8Array,
  signatures: readonly LogSignature[],
): Promise<KeptLog> {
  const r = await scanLog(once(data), path, signatures);
  return keepWindows(
    path,
    data,
    r.matches.map((m) => m.line),
  );
}
