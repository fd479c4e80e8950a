/**
 * Line patterns for what has no structure to follow: logs, unit files, environment files, and
 * the insides of strings in structured files (a command line in a JSON array, a PEM key in a
 * YAML block). Each keeps what surrounds the secret — quotes, escapes, indentation, line
 * breaks — so a quoted value stays quoted and a file keeps its line numbers.
 */
import type { Edit } from './edits';
import { REDACTED, SECRET_FLAG } from './secret-keys';

/** A value after `=`/`:`/a space: quoted (stays quoted), JSON-escaped quoted, or bare. */
const VALUE = String.raw`(\\"(?:[^"\\\n]|\\(?!"))*\\"|"[^"\n]*"|'[^'\n]*'|[^\s"'\\,;}\]]+)`;

/** Names of secret-holding keys inside free text. */
const KEY = String.raw`[A-Za-z0-9_.-]*(?:password|passwd|token|secret|client-key-data|private[_-]?key|api[_-]?key)|auth`;

/** A line worth running the patterns on (most log lines are not). */
const HINT = /token|passw|secret|private|api.?key|key-data|auth|bearer/i;

interface Pattern {
  what: string;
  re: RegExp;
  /** Free text only: structured files get the key-path walk instead. */
  freeTextOnly: boolean;
}

const PATTERNS: Pattern[] = [
  {
    what: 'command-line flag value',
    re: new RegExp(`(${SECRET_FLAG}(?:=|[ \\t]+))${VALUE}`, 'gi'),
    freeTextOnly: false,
  },
  {
    what: 'bearer token',
    // The scheme's name is case-insensitive (RFC 7235, 2.1): `bearer abc…` is a token too.
    re: /(Bearer[ \t]+)([A-Za-z0-9._~+/=-]{8,})/gi,
    freeTextOnly: false,
  },
  {
    // `KEY=value` (env files, flags), `"key": "value"` (JSON in a log line), `key: value` at
    // the start of a line. A mid-line `token: the server …` is prose and stays.
    what: 'credential value',
    re: new RegExp(
      String.raw`((?:^|[\s,;{(="'])(?:${KEY})[ \t]*=[ \t]*|(?:^|[\s,;{(\[])(["'])(?:${KEY})\2[ \t]*:[ \t]*|^[ \t]*-?[ \t]*(?:${KEY})[ \t]*:[ \t]*)${VALUE}`,
      'gi',
    ),
    freeTextOnly: true,
  },
];

/** The value with its quotes kept and its content hidden (undefined: nothing to hide). */
function hide(value: string): string | undefined {
  if (value === REDACTED) return undefined;
  for (const q of ['\\"', '"', "'"])
    if (value.startsWith(q) && value.endsWith(q) && value.length >= 2 * q.length) {
      const inner = value.slice(q.length, value.length - q.length);
      return inner === '' || inner === REDACTED ? undefined : `${q}${REDACTED}${q}`;
    }
  return REDACTED;
}

/** Part of every PEM private key block: the only pattern that spans lines. */
export const KEY_MARKER = 'PRIVATE KEY-----';

const KEY_BLOCK = /(-----BEGIN ([A-Z0-9 ]*PRIVATE KEY)-----)([\s\S]*?)(-----END \2-----)/g;

/** Hides the body of PEM private keys, keeping line breaks, indentation and `\n` escapes. */
function keyBlockEdits(text: string, out: Edit[]): void {
  if (!text.includes(KEY_MARKER)) return;
  for (const m of text.matchAll(KEY_BLOCK)) {
    const body = m[3] ?? '';
    const hidden = body.replace(/(\\.)|([^\s\\]+)/g, (_all, esc: string | undefined) =>
      esc !== undefined ? esc : REDACTED,
    );
    if (hidden === body) continue;
    const start = (m.index ?? 0) + (m[1] ?? '').length;
    out.push({ start, end: start + body.length, text: hidden, what: (m[2] ?? '').toLowerCase() });
  }
}

const FREE_TEXT_PATTERNS = PATTERNS;
const STRUCTURED_PATTERNS = PATTERNS.filter((p) => !p.freeTextOnly);

/**
 * Edits for the line patterns in one line (no `\n` in it) that starts at `offset` of its text.
 * Every pattern is line-local, so a line gives the same edits alone as inside its file.
 */
export function lineSecretEdits(
  line: string,
  offset: number,
  opts: { freeText: boolean },
  out: Edit[],
): void {
  if (!HINT.test(line)) return;
  for (const p of opts.freeText ? FREE_TEXT_PATTERNS : STRUCTURED_PATTERNS) {
    for (const m of line.matchAll(p.re)) {
      const value = m[m.length - 1] ?? '';
      const text2 = hide(value);
      if (text2 === undefined) continue;
      const at = offset + (m.index ?? 0) + m[0].length - value.length;
      out.push({ start: at, end: at + value.length, text: text2, what: p.what });
    }
  }
}

/** Edits for the line patterns over the whole text. */
export function textSecretEdits(text: string, opts: { freeText: boolean }): Edit[] {
  const out: Edit[] = [];
  keyBlockEdits(text, out);
  for (let start = 0; start < text.length;) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    lineSecretEdits(text.slice(start, end), start, opts, out);
    start = end + 1;
  }
  return out;
}
