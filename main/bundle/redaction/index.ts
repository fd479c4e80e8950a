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

function baseName(path: string): string {
  return path.split(/[\\/]/).pop()?.toLowerCase() ?? '';
}

function looksToml(path: string): boolean {
  const name = baseName(path);
  return name.endsWith('.toml') || (name.endsWith('.conf') && /crio|containerd/i.test(path));
}

function looksYaml(path: string, text: string): boolean {
  const name = baseName(path);
  return (
    /\.ya?ml$/.test(name) ||
    name.includes('kubeconfig') ||
    name === 'kubelet.conf' ||
    name === 'admin.conf' ||
    /^(apiVersion|kind|clusters|users):/m.test(text.slice(0, 65536))
  );
}

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
  const n = Math.min(data.length, 8192);
  for (let i = 0; i < n; i++) if (data[i] === 0) return true;
  return false;
}

function withhold(path: string, why: string): { data: Buffer; redactions: Redaction[] } {
  return { data: Buffer.alloc(0), redactions: [{ path, what: `whole file withheld: ${why}` }] };
}

/** From this size on, free text is redacted over its bytes (free-text.ts), not as a string. */
export const BYTE_REDACTION_BYTES = 256 * 1024;

const ASCII_SPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]);
/** Enough bytes for the 65,536 characters looksYaml looks at, whatever the encoding. */
const YAML_HEAD_BYTES = 3 * 65536;
const YAML_KEYS = ['apiVersion:', 'kind:', 'clusters:', 'users:'].map((k) => Buffer.from(k));

/**
 * True when `structure()` could not apply and the text path would run only the line patterns:
 * judged on the bytes, erring towards "could" (which takes the string path, never a wrong one).
 */
export function plainFreeText(path: string, data: Buffer): boolean {
  return plainUnlessKeyBlock(path, data) && !data.includes(KEY_MARKER);
}

/**
 * plainFreeText without its search for a PEM key block: the byte path finds one itself (its
 * marker holds "PRIVATE", a hint word) and gives up, which saves a pass over a 64 MiB log tail.
 */
function plainUnlessKeyBlock(path: string, data: Buffer): boolean {
  if (looksToml(path) || looksYaml(path, '')) return false;
  let i = 0;
  while (i < data.length && ASCII_SPACE.has(data[i] as number)) i++;
  const first = data[i];
  // `{`/`[` would be tried as JSON; a non-ASCII byte might be Unicode white space before one.
  if (first === 0x7b || first === 0x5b || (first !== undefined && first >= 0x80)) return false;
  const head = data.subarray(0, YAML_HEAD_BYTES);
  return !YAML_KEYS.some((k) => head.includes(k));
}

export function redactFile(path: string, data: Buffer): { data: Buffer; redactions: Redaction[] } {
  if (looksBinary(data)) {
    return data.includes(KEY_MARKER)
      ? withhold(path, 'a binary file holding a private key')
      : { data, redactions: [] };
  }
  if (data.length >= BYTE_REDACTION_BYTES && plainUnlessKeyBlock(path, data)) {
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
