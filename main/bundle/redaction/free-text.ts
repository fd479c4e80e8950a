/**
 * The line patterns of text.ts over a large free-text file (a log tail) without turning it into
 * one string: a redaction that decoded a 64 MiB tail, sliced it line by line and ran a regex
 * on every line cost more than reading and compressing it. Here the bytes are searched window by
 * window, without case, for the words that can start a secret (hintedLines below);
 * only the lines holding one are decoded and given to the same line patterns. Every pattern is
 * line-local and the hint words are a superset of text.ts's HINT, so the edits are exactly those
 * of textSecretEdits on the whole text — the caller makes sure nothing else would apply (not
 * binary, no structure to follow, no PEM key block).
 */
import { isUtf8 } from 'node:buffer';
import type { Edit } from './edits';
import type { Redaction } from '.';
import { KEY_MARKER, lineSecretEdits } from './text';

/**
 * Every word HINT can match, without case: one regular expression run over each window of the
 * bytes as a latin1 string (one character per byte, so an index is a byte offset). In latin1 only
 * `A`–`Z` and `a`–`z` fold onto ASCII letters (ECMAScript's Canonicalize keeps a character at or
 * above 128 from folding onto one below), so this finds exactly what a byte search folded with
 * OR 0x20 found. A URL password (`://user:pw@`): `@` and a backquote (which `@` folded onto) are
 * looked for, which only costs a look at a backquote line.
 *
 * One pass of V8's regular expression engine was quicker than a Buffer.indexOf pass per word over
 * folded bytes (each stops at every byte its first letter folds to, and most of the letters are
 * common in logs: `a`–`f` fill hex ids), CPU for a 64 MiB log tail: 95 vs 118 ms on the
 * benchmark node's log, 139 vs 171 ms on bench/logscan-data.ts's.
 */
const HINT_WORDS = /token|pass|secret|private|key|auth|bearer|credential|psk|sig|[@`]/gi;
/** The longest word above: a window overlaps the next by one less, so no word is cut by a seam. */
const LONGEST = 'credential'.length;
const WINDOW = 1024 * 1024;
const NL = 0x0a;

/** Starts of the lines that hold a hint word (any case), ascending. */
function hintedLines(data: Buffer): number[] {
  const starts: number[] = [];
  const re = HINT_WORDS;
  for (let from = 0; from < data.length; from += WINDOW) {
    const to = Math.min(data.length, from + WINDOW + LONGEST - 1);
    const text = data.toString('latin1', from, to);
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      // A word starting past the window is the next window's (whole there): ascending order.
      if (m.index >= WINDOW) break;
      const start = data.lastIndexOf(NL, from + m.index) + 1;
      // A line across a seam is found again by the next window.
      if (starts[starts.length - 1] !== start) starts.push(start);
      // One hit per line is enough: carry on after this line.
      const end = text.indexOf('\n', m.index);
      if (end === -1) break;
      re.lastIndex = end + 1;
    }
  }
  return starts;
}

const KEY_BLOCK = Buffer.from(KEY_MARKER, 'latin1');

/**
 * Byte edits for the line patterns of free text, as textSecretEdits would find them; undefined
 * when a PEM key block is in the text (its marker holds "PRIVATE", so its line is a hinted one):
 * that needs the string path's block handling.
 */
function byteEdits(data: Buffer, encoding: 'utf8' | 'latin1'): Edit[] | undefined {
  const out: Edit[] = [];
  for (const start of hintedLines(data)) {
    const nl = data.indexOf(NL, start);
    const end = nl === -1 ? data.length : nl;
    if (data.subarray(start, end).includes(KEY_BLOCK)) return undefined;
    const line = data.toString(encoding, start, end);
    const found: Edit[] = [];
    lineSecretEdits(line, 0, { freeText: true }, found);
    const at = (chars: number): number =>
      start + (encoding === 'latin1' ? chars : Buffer.byteLength(line.slice(0, chars), 'utf8'));
    for (const e of found) out.push({ ...e, start: at(e.start), end: at(e.end) });
  }
  return out;
}

const REPLACEMENT = Buffer.from('\uFFFD', 'utf8');

/** The encoding index.ts's decode() would choose: UTF-8 when it decodes losslessly. */
export function encodingOf(data: Buffer): 'utf8' | 'latin1' {
  return isUtf8(data) && data.indexOf(REPLACEMENT) === -1 ? 'utf8' : 'latin1';
}

/**
 * Redacts free text byte by byte (see above): the same bytes and the same list as redactFile's
 * text path. With nothing to hide, `data` itself comes back (no copy). Undefined when the text
 * holds a PEM key block, which only the string path handles.
 */
export function redactFreeTextBytes(
  path: string,
  data: Buffer,
): { data: Buffer; redactions: Redaction[] } | undefined {
  return redactFreeTextPart(path, data, encodingOf(data), 1);
}

/**
 * The same for a part of a larger text that starts at a line boundary and ends after a newline
 * (or at the text's end), decoded as `encoding`, its first line numbered `firstLine` (a
 * function is asked only when there is something to hide, so a caller can put off counting the
 * lines before the part until they are needed): a log
 * tail redacted part by part (main/bundle/tail/) names the same lines as the whole would.
 */
export function redactFreeTextPart(
  path: string,
  data: Buffer,
  encoding: 'utf8' | 'latin1',
  firstLine: number | (() => number),
): { data: Buffer; redactions: Redaction[] } | undefined {
  const found = byteEdits(data, encoding);
  if (found === undefined) return undefined;
  // Sorted by position, longer first; an edit overlapping an earlier one is dropped (edits.ts).
  const edits = found.sort((a, b) => a.start - b.start || b.end - a.end);
  if (edits.length === 0) return { data, redactions: [] };
  const parts: Buffer[] = [];
  const redactions: Redaction[] = [];
  let at = 0;
  let line = typeof firstLine === 'number' ? firstLine : firstLine();
  let counted = 0;
  for (const e of edits) {
    if (e.start < at) continue;
    parts.push(data.subarray(at, e.start), Buffer.from(e.text, encoding));
    at = e.end;
    for (let i = data.indexOf(NL, counted); i !== -1 && i < e.start; i = data.indexOf(NL, i + 1)) {
      line++;
      counted = i + 1;
    }
    redactions.push({ path, what: `${e.what} (line ${line})` });
  }
  parts.push(data.subarray(at));
  return { data: Buffer.concat(parts), redactions };
}
