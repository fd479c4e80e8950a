/**
 * Removes secrets from one file before it leaves the node. A pure function (path + bytes →
 * bytes + what was hidden), so a bundle writer can call it file by file as it streams.
 *
 * Structured files are redacted by key path (JSON, TOML, YAML: any nesting, any quoting), then
 * line patterns catch what structure cannot name (a `--token=` inside a command-line string, a
 * PEM key). A redaction never changes the file's syntax: the result is parsed again with the
 * same parser, and if it would not parse, the file is withheld rather than shipped broken or
 * unredacted. Line counts stay the same, so findings point at the same lines on the node and in
 * the bundle.
 */
import { parseToml } from '../../config/toml';
import { applyEdits, type Edit } from './edits';
import { jsonSecretEdits } from './json';
import { redactFreeTextBytes } from './free-text';
import { BYTE_REDACTION_BYTES, freeTextOnly } from './free-text-gate';
import { looksToml, looksYaml } from './file-kind';
import { mayHoldSecrets } from './may-hold-secrets';
import { KEY_MARKER, textSecretEdits } from './text';
import { tomlSecretEdits } from './toml';
import { yamlParses, yamlSecretEdits } from './yaml';

export interface Redaction {
  path: string;
  what: string;
}

type Format = 'json' | 'toml' | 'yaml';

interface Structured {
  format: Format;
  edits: Edit[];
}

const PARSES: Record<Format, (text: string) => boolean> = {
  json: (t) => {
    try {
      JSON.parse(t);
      return true;
    } catch {
      return false;
    }
  },
  toml: (t) => parseToml(t).ok,
  yaml: yamlParses,
};

/** The format `text` parses as, with the edits hiding its secret values. */
function structure(path: string, text: string): Structured | undefined {
  const first = /\S/.exec(text)?.[0];
  const tries: [Format, () => Edit[] | undefined][] = [];
  if (first === '{' || first === '[') tries.push(['json', () => jsonSecretEdits(text)]);
  if (looksToml(path)) tries.push(['toml', () => tomlSecretEdits(text)]);
  if (looksYaml(path, text)) tries.push(['yaml', () => yamlSecretEdits(text)]);
  for (const [format, find] of tries) {
    let edits: Edit[] | undefined;
    try {
      edits = find();
    } catch {
      edits = undefined; // a walk limit (nesting depth): treated as not that format
    }
    if (edits) return { format, edits };
  }
  return undefined;
}

/** Each applied edit (sorted by position) with its line number, computed in one pass. */
function describe(path: string, text: string, applied: readonly Edit[]): Redaction[] {
  const out: Redaction[] = [];
  let line = 1;
  let at = 0;
  for (const e of applied) {
    // The line of the first hidden character (a multi-line value may start with a line break).
    const first = e.start + (/^\s*/.exec(text.slice(e.start, e.end))?.[0].length ?? 0);
    for (let i = text.indexOf('\n', at); i !== -1 && i < first; i = text.indexOf('\n', i + 1)) {
      line++;
      at = i + 1;
    }
    out.push({ path, what: `${e.what} (line ${line})` });
  }
  return out;
}

function decode(data: Buffer): { text: string; encoding: BufferEncoding } {
  const text = data.toString('utf8');
  // Not UTF-8: latin1 maps bytes one to one, so untouched bytes stay exactly as they were.
  if (Buffer.byteLength(text, 'utf8') === data.length && !text.includes('\uFFFD'))
    return { text, encoding: 'utf8' };
  return { text: data.toString('latin1'), encoding: 'latin1' };
}

/** Binary files are never rewritten; one holding a private key is withheld. */
export function looksBinary(data: Buffer): boolean {
  // A byte search (memchr), not a loop: it runs on every file a collect records.
  return data.subarray(0, 8192).indexOf(0) !== -1;
}

function withhold(path: string, why: string): { data: Buffer; redactions: Redaction[] } {
  return { data: Buffer.alloc(0), redactions: [{ path, what: `whole file withheld: ${why}` }] };
}

/**
 * True when `structure()` could not apply and the text path would run only the line patterns
 * (free-text-gate.ts), and no PEM key block is in it.
 */
export function plainFreeText(path: string, data: Buffer): boolean {
  return freeTextOnly(path, data) && !data.includes(KEY_MARKER);
}

export { BYTE_REDACTION_BYTES };

export function redactFile(path: string, data: Buffer): { data: Buffer; redactions: Redaction[] } {
  if (looksBinary(data)) {
    return data.includes(KEY_MARKER)
      ? withhold(path, 'a binary file holding a private key')
      : { data, redactions: [] };
  }
  if (data.length >= BYTE_REDACTION_BYTES && freeTextOnly(path, data)) {
    const r = redactFreeTextBytes(path, data);
    if (r) return r;
  }
  return redactAsText(path, data);
}

/** The string path for any text file (what the byte path must equal; exported for its test). */
export function redactAsText(
  path: string,
  data: Buffer,
): { data: Buffer; redactions: Redaction[] } {
  const { text, encoding } = decode(data);
  if (!mayHoldSecrets(text)) return { data, redactions: [] };
  const s = structure(path, text);
  const edits = s
    ? [...s.edits, ...textSecretEdits(text, { freeText: false })]
    : textSecretEdits(text, { freeText: true });
  if (edits.length === 0) return { data, redactions: [] };
  const out = applyEdits(text, edits);
  // A redaction must leave the file as parseable as it was; shipping it broken would change
  // what a scan of the bundle says, and shipping it unredacted would leak.
  if (s && !PARSES[s.format](out.text))
    return withhold(path, `hiding its secrets would have broken its ${s.format.toUpperCase()}`);
  return { data: Buffer.from(out.text, encoding), redactions: describe(path, text, out.applied) };
}
