import { describe, expect, it } from 'vitest';
import { CORPUS, markedTexts, planted } from '../../../fixtures/secret-corpus/corpus';
import type { Edit } from './edits';
import { SECRET_FILES } from './secret-shapes.testutil';
import { lineSecretEdits, patternsToRun, ungatedPatterns } from './text';

/** A containerd line of every busy node: `key` makes it a hinted line, and it hides nothing. */
const IMAGE_CREATE = String.raw`Dec 02 09:00:01 node-1 containerd[812]: time="2024-12-02T09:00:01.980496123Z" level=info msg="ImageCreate event name:\"registry.k8s.io/pause:3.10\" labels:{key:\"io.cri-containerd.image\" value:\"managed\"}"`;

/** Deterministic PRNG, so a failure names a line that fails every time. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

/**
 * Lines built from the pieces the patterns and their gates look at: secret and harmless keys
 * spelt with separators and in any case, flags, URLs with user info and queries, header dumps,
 * name/value pairs, quotes, escapes and runtime log text.
 */
function generatedLines(count: number): string[] {
  const rand = prng(25);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const words = [
    'token', 'pass', 'passwd', 'password', 'secret', 'auth', 'authorization', 'psk', 'key',
    'keydata', 'client-key-data', 'private_key', 'api.key', 'access-key', 'etcd_key', 'sig',
    'signature', 'credentials', 'credential', 'bearer', 'pre_shared_key', 'x-amz-signature',
    'name', 'value', 'level', 'msg', 'labels', 'image', 'id', 'ke_y', 't-o-k-e-n', 'to.ken',
  ]; // prettier-ignore
  const sep = ['', '', '_', '-', '.', ' '];
  const spell = (w: string): string =>
    [...w].map((c) => (rand() < 0.3 ? c.toUpperCase() : c)).join(rand() < 0.1 ? pick(sep) : '');
  const key = (): string =>
    `${rand() < 0.3 ? pick(['my', 'X', 'aws', 'k8s']) + pick(sep) : ''}${spell(pick(words))}`;
  const value = (): string =>
    pick([`v${Math.floor(rand() * 1e6)}`, `"q v"`, `'s'`, String.raw`\"esc\"`, 'REDACTED', '""']);
  const pieces: (() => string)[] = [
    () => `${key()}=${value()}`,
    () => `"${key()}": ${value()}`,
    () => `${key()}: ${value()}`,
    () => `--${key()}=${value()}`,
    () => `-${key()} ${value()}`,
    () => `/${key()}:${value()}`,
    () => `["--${key()}", ${value()}]`,
    () => `flag="--${key()}" value=${value()}`,
    () => `${spell('bearer')} abcdefgh${Math.floor(rand() * 1e4)}`,
    () => `${spell('authorization')}: Basic dXNlcjpwdw==`,
    () => `https://user:${value()}@host:3128/p?${key()}=${value()}&a=b`,
    () => `{"name":"${key()}","value":${value()}}`,
    () => `{Name:${key()} Value:${value()}}`,
    () => `labels:{key:\\"io.cri-containerd.image\\" value:\\"managed\\"}`,
    () => `level=info msg="StartContainer for \\"${Math.floor(rand() * 1e9).toString(16)}\\""`,
    () => pick(['ünï', '日本語', '\u212Aey', 'İ', '\r', '\t', ' ', ',', ';', '{', '(', '[']),
  ];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = 1 + Math.floor(rand() * 5);
    out.push(Array.from({ length: n }, () => pick(pieces)()).join(pick([' ', ', ', '', '\t'])));
  }
  return out;
}

function linesOf(texts: readonly string[]): string[] {
  return texts.flatMap((t) => t.split('\n'));
}

const edits = (
  line: string,
  freeText: boolean,
  patterns: typeof patternsToRun | typeof ungatedPatterns,
): Edit[] => {
  const out: Edit[] = [];
  lineSecretEdits(line, 0, { freeText }, out, patterns);
  return out;
};

describe('line pattern gates', () => {
  it('run no pattern on a hinted runtime log line that holds no secret', () => {
    expect(ungatedPatterns(IMAGE_CREATE, { freeText: true }).length).toBeGreaterThan(10);
    expect(patternsToRun(IMAGE_CREATE, { freeText: true })).toEqual([]);
    expect(patternsToRun(IMAGE_CREATE, { freeText: false })).toEqual([]);
  });

  it('keep the patterns a secret needs', () => {
    const whats = (line: string): string[] =>
      patternsToRun(line, { freeText: true }).map((p) => p.what);
    expect(whats('PASSWORD = x')).toContain('credential value');
    expect(whats('--etcd-password x')).toContain('command-line flag value');
    expect(whats('curl -H "Authorization: Basic x"')).toContain('authorization header');
    expect(whats('proxy=http://u:pw@h')).toContain('URL password');
    expect(whats('GET /x?X-Amz-Signature=abc')).toContain('URL query parameter');
  });

  it('give the edits all patterns give, on the corpus, the secret shapes and generated lines', () => {
    const corpus = CORPUS.flatMap((c) => markedTexts(c).map(planted));
    const lines = [
      IMAGE_CREATE,
      ...linesOf(corpus),
      ...linesOf(SECRET_FILES.map((f) => f.text)),
      ...generatedLines(20000),
    ];
    let gated = 0;
    let ungated = 0;
    let found = 0;
    for (const line of lines)
      for (const freeText of [true, false]) {
        const want = edits(line, freeText, ungatedPatterns);
        expect(edits(line, freeText, patternsToRun), JSON.stringify(line)).toEqual(want);
        found += want.length;
        gated += patternsToRun(line, { freeText }).length;
        ungated += ungatedPatterns(line, { freeText }).length;
      }
    // The lines hide many secrets, and the gates still spare work on them.
    expect(found).toBeGreaterThan(5000);
    expect(gated).toBeLessThan(ungated / 2);
  });
});
