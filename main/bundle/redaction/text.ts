/**
 * Line patterns for what has no structure to follow: logs, unit files, environment files, command
 * lines, and the insides of strings in structured files (a command line in a JSON array, a PEM
 * key in a YAML block). Each keeps what surrounds the secret — quotes, escapes, indentation, line
 * breaks, an authorization scheme, a URL's user name — so a quoted value stays quoted and a file
 * keeps its line numbers.
 *
 * Which keys are secret is decided by isSecretKey (secret-keys.ts), the predicate the structured
 * walks use: a pattern here finds `KEY=value`, `"key": value` or `key: value` for any key and
 * keeps the match only when isSecretKey accepts the key.
 */
import type { Edit } from './edits';
import {
  FLAG_ENDINGS,
  REDACTED,
  SECRET_FLAG,
  SECRET_KEY_WORDS,
  SECRET_QUERY_WORDS,
  SLASH_SECRET_FLAG,
  isAuthorizationKey,
  isSecretKey,
  isSecretQueryParam,
} from './secret-keys';

/** A value after `=`/`:`/a space: quoted (stays quoted), JSON-escaped quoted, or bare. */
const VALUE = String.raw`(?<v>\\"(?:[^"\\\n]|\\(?!"))*\\"|"[^"\n]*"|'[^'\n]*'|[^\s"'\\,;}\]]+)`;

/** The same, a bare value running to the end of the line (`Password: two words`). */
const REST_VALUE = String.raw`(?<v>\\"(?:[^"\\\n]|\\(?!"))*\\"|"[^"\n]*"|'[^'\n]*'|[^\s"'](?:[^\r\n]*[^\s])?)(?=[ \t\r]*$)`;

/** A key name as configs and environments spell it. */
const KEY = String.raw`(?<k>[A-Za-z0-9_.-]+)`;

/**
 * A line worth running the patterns on (most log lines are not). Every pattern needs one of
 * these: a key isSecretKey accepts holds token, pass, secret, private, key, auth, credential or
 * psk; a flag ends in one of them; a signed URL's parameter is `sig`/`signature`; a URL with a
 * password holds `://…@`. free-text.ts's byte search relies on this list (its words must find
 * every line this matches).
 */
const HINT = /token|pass|secret|private|key|auth|bearer|credential|psk|sig|:\/\/[^\s/]*@/i;

/**
 * A test for "holds one of these words, spelt as a key may spell it": lower-cased, without `-`,
 * `_` and `.` (normalizeKey drops those, and white space, which a key the patterns find never
 * holds), the line holds one of the words no other word of the list is part of. Substring
 * searches, not one RegExp of every word with `[-_.]*` between letters: compiling that (527
 * characters) cost a small scan ~0.5 ms at its first hinted line. (toLowerCase also maps a few
 * non-ASCII letters to ASCII ones, the Kelvin sign to `k`: the gate opens more often, never less.)
 */
function anyKeyWord(words: readonly string[]): (text: string) => boolean {
  const needed = [...new Set(words)].filter((w) => !words.some((o) => o !== w && w.includes(o)));
  return (text) => {
    const plain = text.toLowerCase().replace(KEY_PUNCTUATION, '');
    return needed.some((w) => plain.includes(w));
  };
}
const KEY_PUNCTUATION = /[-_.]/g;
const holdsSecretKeyWord = anyKeyWord(SECRET_KEY_WORDS);
const holdsSecretQueryWord = anyKeyWord(SECRET_QUERY_WORDS);
/** Every match of a flag pattern holds one of these words (matched without case, as there). */
const FLAG_WORD = new RegExp(FLAG_ENDINGS, 'i');
const SLASH_FLAG_WORD = new RegExp(`pass|${FLAG_ENDINGS}`, 'i');
/**
 * A hinted line as the patterns' gates look at it, each test made at most once. Most hinted
 * lines of a runtime log hold a word like `key` (`labels:{key:"io.cri-containerd.image"}`) and
 * no secret: the gates keep the patterns off them (13 patterns on every such line made log
 * redaction 2.5 times slower).
 */
class LineView {
  private flagWord: boolean | undefined;
  private keyWord: boolean | undefined;
  constructor(readonly text: string) {}
  /** Holds a word every secret flag ends in (three patterns ask). */
  get flag(): boolean {
    return (this.flagWord ??= FLAG_WORD.test(this.text));
  }
  /**
   * May hold a key isSecretKey accepts (four patterns ask): a key the patterns find is a run of
   * ASCII letters, digits and `-_.` of the line, and isSecretKey accepts a key only when its
   * normalized form holds one of SECRET_KEY_WORDS (holdsSecretKeyWord).
   */
  get secretKey(): boolean {
    return (this.keyWord ??= holdsSecretKeyWord(this.text));
  }
}

const mayHoldFlag = (l: LineView): boolean => l.flag;
const mayHoldSecretKey = (l: LineView): boolean => l.secretKey;

export interface Pattern {
  what: string;
  re: RegExp;
  /** Free text only: structured files get the key-path walk instead. */
  freeTextOnly: boolean;
  /** When set, a match counts only if its `k` group passes. */
  key?: (k: string) => boolean;
  /**
   * False only for a line in which `re` can find nothing to hide: a cheap test of what every
   * match (whose key passes `key`) must hold. Exactness is tested (text.test.ts).
   */
  may: (l: LineView) => boolean;
}

/** A secret key whose value is not an authorization header (that pattern keeps the scheme). */
const plainSecretKey = (k: string): boolean => isSecretKey(k) && !isAuthorizationKey(k);

const PATTERNS: Pattern[] = [
  {
    // `--token=x`, `--etcd-password x`, `-etcd-password=x`, PowerShell `-Token x`/`-Token:x`.
    what: 'command-line flag value',
    re: new RegExp(
      String.raw`(?:^|(?<=[\s"'(\[,=]))(?:${SECRET_FLAG})(?:[=:]|[ \t]+)${VALUE}`,
      'gi',
    ),
    freeTextOnly: false,
    may: mayHoldFlag,
  },
  {
    // Windows switches: `/password:x`.
    what: 'command-line flag value',
    re: new RegExp(String.raw`(?:^|(?<=[\s"']))(?:${SLASH_SECRET_FLAG}):${VALUE}`, 'gi'),
    freeTextOnly: false,
    may: (l) => SLASH_FLAG_WORD.test(l.text),
  },
  {
    // The flag and its value as two strings of one list: `["--token", "x"]` in a log line.
    what: 'command-line flag value',
    // (Not a key after it: `"flag":"--token","value":…` is klog's JSON, below.)
    re: new RegExp(String.raw`(\\?["'])(?:${SECRET_FLAG})\1[ \t]*,[ \t]*${VALUE}(?![ \t]*:)`, 'gi'),
    freeTextOnly: false,
    may: mayHoldFlag,
  },
  {
    // klog's structured flag dump: `flag="--bootstrap-token" value="x"`, or as JSON.
    what: 'command-line flag value',
    re: new RegExp(
      String.raw`flag(\\?["']?)[ \t]*[=:][ \t]*(\\?["'])(?:${SECRET_FLAG})\2[ \t]*,?[ \t]*(\\?["']?)value\3[ \t]*[=:][ \t]*${VALUE}`,
      'gi',
    ),
    freeTextOnly: false,
    may: mayHoldFlag,
  },
  {
    what: 'bearer token',
    // The scheme's name is case-insensitive (RFC 7235, 2.1): `bearer abc…` is a token too.
    re: /(Bearer[ \t]+)(?<v>[A-Za-z0-9._~+/=-]{8,})/gi,
    freeTextOnly: false,
    may: (l) => /bearer/i.test(l.text),
  },
  {
    // `Authorization: Basic x` (a header dump, `curl -H "…"`, JSON, Go's `map[Authorization:[…]]`)
    // with any scheme: the credentials go, the scheme stays.
    what: 'authorization header',
    re: new RegExp(
      String.raw`(?:^[ \t]*(?:[-><][ \t]*)?|["'{\[(,;][ \t]*)(\\?["']?)(?<k>[A-Za-z0-9_.-]*authorization)\1[ \t]*:[ \t]*(?:\\?["']|\[)?(?:[A-Za-z][A-Za-z0-9._-]*[ \t]+)?(?<v>[^\s"'\\,;\]]+)`,
      'gi',
    ),
    freeTextOnly: true,
    may: (l) => /authorization/i.test(l.text),
  },
  {
    what: 'authorization header',
    re: new RegExp(
      String.raw`(?<![A-Za-z0-9_.-])(?<k>[A-Za-z0-9_.-]*authorization)[ \t]*=[ \t]*(?:\\?["'])?(?:[A-Za-z][A-Za-z0-9._-]*[ \t]+)?(?<v>[^\s"'\\,;\]]+)`,
      'gi',
    ),
    freeTextOnly: true,
    may: (l) => /authorization/i.test(l.text),
  },
  {
    // A password in a URL: `http://user:pw@proxy:3128` (the user name stays).
    what: 'URL password',
    // (The scheme starts where no scheme character precedes it: a long run of letters is tried
    // once, not from each of its letters.)
    re: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#@:"'\\]*:(?<v>[^\s/?#"'\\]+)(?=@)/g,
    freeTextOnly: false,
    may: (l) => l.text.includes('://'),
  },
  {
    // `?token=x&…`, `&access_token=x`, `X-Amz-Signature=…`, `&sig=…`.
    what: 'URL query parameter',
    re: new RegExp(String.raw`[?&]${KEY}=(?<v>[^&#\s"'\\<>]+)`, 'g'),
    freeTextOnly: false,
    may: (l) => (l.text.includes('?') || l.text.includes('&')) && holdsSecretQueryWord(l.text),
    key: isSecretQueryParam,
  },
  {
    // An environment variable as a name/value pair: `{"name":"AWS_SECRET_ACCESS_KEY","value":…}`
    // (JSON in a log line) and Go's `{Name:AWS_SECRET_ACCESS_KEY,Value:…}`.
    what: 'credential value',
    re: new RegExp(
      String.raw`(\\?["']?)name\1[ \t]*:[ \t]*\1${KEY}\1[ \t]*,[ \t]*\1value\1[ \t]*:[ \t]*${VALUE}|\bName:${KEY.replace('<k>', '<k2>')}[ ,]Value:${VALUE.replace('<v>', '<v2>')}`,
      'g',
    ),
    freeTextOnly: true,
    may: mayHoldSecretKey,
    key: plainSecretKey,
  },
  {
    // `KEY=value` (env files, flags, logfmt).
    what: 'credential value',
    re: new RegExp(String.raw`(?:^|(?<=[\s,;{(="']))${KEY}[ \t]*=[ \t]*${VALUE}`, 'g'),
    freeTextOnly: true,
    may: mayHoldSecretKey,
    key: plainSecretKey,
  },
  {
    // `"key": "value"` (JSON in a log line, escaped inside a quoted field too).
    what: 'credential value',
    re: new RegExp(String.raw`(?:^|(?<=[\s,;{(\[]))(\\?["'])${KEY}\1[ \t]*:[ \t]*${VALUE}`, 'g'),
    freeTextOnly: true,
    may: mayHoldSecretKey,
    key: plainSecretKey,
  },
  {
    // `key: value` at the start of a line (YAML-like text, a header dump). A mid-line
    // `token: the server …` is prose and stays.
    what: 'credential value',
    re: new RegExp(String.raw`^[ \t]*(?:[-><][ \t]*)?${KEY}[ \t]*:[ \t]*${REST_VALUE}`, 'g'),
    freeTextOnly: true,
    may: mayHoldSecretKey,
    key: plainSecretKey,
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

/** Part of every PEM private key block and PGP private key block marker. */
export const KEY_MARKER = 'PRIVATE KEY';

const KEY_BLOCK =
  /(-----BEGIN ([A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?)-----)([\s\S]*?)(-----END \2-----)/g;

/** Hides the body of PEM and PGP private keys, keeping line breaks, indentation and `\n` escapes. */
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
 * The patterns worth running on a line: none unless it holds a HINT word, then those whose gate
 * the line passes. Every other pattern would find nothing to hide in it (text.test.ts checks
 * this against running them all).
 */
export function patternsToRun(line: string, opts: { freeText: boolean }): readonly Pattern[] {
  if (!HINT.test(line)) return [];
  const view = new LineView(line);
  return (opts.freeText ? FREE_TEXT_PATTERNS : STRUCTURED_PATTERNS).filter((p) => p.may(view));
}

/** Tests only: every pattern of the kind on every HINT line, as before the gates. */
export function ungatedPatterns(line: string, opts: { freeText: boolean }): readonly Pattern[] {
  if (!HINT.test(line)) return [];
  return opts.freeText ? FREE_TEXT_PATTERNS : STRUCTURED_PATTERNS;
}

/**
 * Edits for the line patterns in one line (no `\n` in it) that starts at `offset` of its text.
 * Every pattern is line-local, so a line gives the same edits alone as inside its file.
 */
export function lineSecretEdits(
  line: string,
  offset: number,
  opts: { freeText: boolean },
  out: Edit[],
  patterns: (line: string, opts: { freeText: boolean }) => readonly Pattern[] = patternsToRun,
): void {
  for (const p of patterns(line, opts)) {
    const re = p.re;
    re.lastIndex = 0;
    for (let m = re.exec(line); m !== null; m = re.exec(line)) {
      const g = m.groups ?? {};
      const key = g.k ?? g.k2;
      if (p.key && (key === undefined || !p.key(key))) {
        // Not a secret key: look again from the next character, so a key inside what this
        // match took (`x=password=y`) is still found.
        re.lastIndex = m.index + 1;
        continue;
      }
      const value = g.v ?? g.v2 ?? '';
      const text2 = hide(value);
      if (text2 === undefined) continue;
      const at = offset + m.index + m[0].length - value.length;
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

/** Edits for the line patterns of free text over one string, for a command line or a value. */
export function freeTextEdits(text: string): Edit[] {
  return textSecretEdits(text, { freeText: true });
}
