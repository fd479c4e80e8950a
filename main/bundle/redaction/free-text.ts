/**
 * The line patterns of text.ts over a large free-text file (a log tail) without turning it into
 * one string: a redaction that decoded a 64 MiB tail, sliced it line by line and ran a regex
 * on every line cost more than reading and compressing it. Here the bytes are folded to lower
 * case window by window and searched (Buffer.indexOf) for the words that can start a secret;
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
 * Lower-case forms of every word HINT can match (text.ts says why each is there).
 * Bytes are compared after OR 0x20, which maps exactly `A`–`Z` onto `a`–`z` for letters.
 *
 * Each word is searched from a letter that is rare in runtime logs: Buffer.indexOf finds a short
 * pattern's first byte with memchr and compares the rest at each hit, so a word searched from a
 * letter that hex ids and English are full of (`e`, `a`, `c`, `i`) stops every few bytes. Hex ids
 * fill containerd logs, so `a`–`f` are common too; where a word has no rare letter, it is searched
 * whole (from `s`, `b`, `c`). The letters before the anchor are compared at each hit. Anchors
 * measured on the synthetic 30 MiB log of bench/logscan-data.ts, ms per pass: `ass` 24 vs `pass`
 * 6, `ential` 45 vs `credential` 32, `k` (of psk) 57 vs `psk` 6, `ig` 25 vs `sig` 16, `cret` 28
 * vs `secret` 23.
 */
const HINT_WORDS: readonly { word: string; anchor: number }[] = [
  { word: 'token', anchor: 2 }, // ken
  { word: 'pass', anchor: 0 },
  { word: 'secret', anchor: 0 },
  { word: 'private', anchor: 3 }, // vate
  { word: 'key', anchor: 0 },
  { word: 'auth', anchor: 1 }, // uth
  { word: 'bearer', anchor: 0 },
  { word: 'credential', anchor: 0 },
  { word: 'psk', anchor: 0 },
  { word: 'sig', anchor: 0 },
  // A URL password (`://user:pw@`): `@` folds (OR 0x20) to a backquote, so a backquote line is
  // looked at too, which only costs a look.
  { word: '@', anchor: 0 },
];
/** The byte a character is compared as after folding (OR 0x20). */
const fold = (s: string): Buffer => Buffer.from(Buffer.from(s, 'latin1').map((b) => b | 0x20));
const NEEDLES = HINT_WORDS.map(({ word, anchor }) => ({
  from: fold(word.slice(anchor)),
  before: fold(word.slice(0, anchor)),
}));
const LONGEST = Math.max(...HINT_WORDS.map((n) => n.word.length));
const WINDOW = 1024 * 1024;
const NL = 0x0a;

let scratch: { words: Uint32Array; folded: Buffer } | undefined;
/** One folding buffer for every call: a log tail redacted part by part asks for it 64 times. */
function foldScratch(): { words: Uint32Array; folded: Buffer } {
  if (!scratch) {
    const buf = new ArrayBuffer((WINDOW + LONGEST + 3) & ~3);
    scratch = { words: new Uint32Array(buf), folded: Buffer.from(buf) };
  }
  return scratch;
}

/** True when `b` holds `word` at `at` (no subarray: this runs at every anchor hit). */
function startsWith(b: Buffer, at: number, word: Buffer): boolean {
  for (let k = 0; k < word.length; k++) if (b[at + k] !== word[k]) return false;
  return true;
}

/** Starts of the lines that hold a hint word (any case), ascending. */
function hintedLines(data: Buffer): number[] {
  const starts = new Set<number>();
  // Each window overlaps the next by LONGEST-1 bytes, so a word across the seam is found (by the
  // window it starts in: a word starting before this window belongs to the previous one).
  const { words, folded } = foldScratch();
  for (let from = 0; from < data.length; from += WINDOW) {
    const to = Math.min(data.length, from + WINDOW + LONGEST - 1);
    const n = to - from;
    data.copy(folded, 0, from, to);
    for (let i = 0, w = (n + 3) >>> 2; i < w; i++) words[i] = (words[i] as number) | 0x20202020;
    const view = folded.subarray(0, n);
    for (const { from: needle, before } of NEEDLES) {
      for (let i = view.indexOf(needle, before.length); i !== -1;) {
        const at = i - before.length;
        if (!startsWith(view, at, before)) {
          i = view.indexOf(needle, i + 1);
          continue;
        }
        const start = data.lastIndexOf(NL, from + at) + 1;
        starts.add(start);
        // One hit per line is enough: carry on after this line.
        const end = data.indexOf(NL, from + i);
        if (end === -1 || end + 1 >= to) break;
        i = view.indexOf(needle, end + 1 - from + before.length);
      }
    }
  }
  return [...starts].sort((a, b) => a - b);
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
