import { describe, expect, it } from 'vitest';
import { mayHoldSecrets } from './may-hold-secrets';
import { jsonSecretEdits } from './json';
import { yamlSecretEdits } from './yaml';
import { tomlSecretEdits } from './toml';
import { textSecretEdits } from './text';
import { redactAsText } from '.';
import { SECRET_FILES } from './secret-shapes.testutil';

/** Pieces that build key names near the secret ones: whole words, halves, and separators. */
const PIECES = [
  'to',
  'ken',
  'pass',
  'pa',
  'ss',
  'wd',
  'word',
  'sec',
  'ret',
  'priv',
  'ate',
  'key',
  'ke',
  'y',
  'au',
  'th',
  'bear',
  'er',
  'cred',
  'entials',
  'api',
  'client',
  'data',
  'k8s',
  'name',
  '-',
  '_',
  '.',
  'K',
  'E',
  'Y',
  'T',
  'O',
  'x',
  'Auth',
  'ſ',
  'K',
];

describe('mayHoldSecrets', () => {
  it('says "may" for every secret shape the redaction knows', () => {
    for (const f of SECRET_FILES) expect(mayHoldSecrets(f.text), f.path).toBe(true);
  });

  it('never says "no" where a structured or line rule would hide something (20,000 keys)', () => {
    let seed = 0x9e3779b9;
    const rnd = (n: number): number => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed % n;
    };
    let no = 0;
    for (let i = 0; i < 20_000; i++) {
      let key = '';
      for (let n = 1 + rnd(4); n > 0; n--) key += PIECES[rnd(PIECES.length)];
      const texts = [
        `{"${key}": "v4lue-1234567890"}`,
        `${key}: v4lue-1234567890\n`,
        `[a]\n"${key}" = "v4lue-1234567890"\n`,
        `--${key}=v4lue-1234567890 ${key}=v4lue-1234567890 Bearer v4lue-1234567890`,
      ];
      for (const t of texts) {
        if (mayHoldSecrets(t)) continue;
        no++;
        const edits = [
          ...(jsonSecretEdits(t) ?? []),
          ...(yamlSecretEdits(t) ?? []),
          ...(tomlSecretEdits(t) ?? []),
          ...textSecretEdits(t, { freeText: true }),
          ...textSecretEdits(t, { freeText: false }),
        ];
        expect({ text: t, edits }).toEqual({ text: t, edits: [] });
      }
    }
    // The generator does reach the "no" side often, or the test would prove nothing.
    expect(no).toBeGreaterThan(10_000);
    // 80,000 texts through every redactor: seconds on an idle machine, more on a loaded CI one.
  }, 180_000);

  it('says "may" for any escape, which could spell a key without its letters', () => {
    const escaped = '{"\\u0074oken": "abc"}';
    expect(mayHoldSecrets(escaped)).toBe(true);
    expect(
      redactAsText('/etc/cni/net.d/10-x.conflist', Buffer.from(escaped)).redactions,
    ).not.toEqual([]);
  });

  it('lets a plain CNI config through untouched (the same buffer back)', () => {
    const conf = Buffer.from('{"cniVersion":"1.0.0","name":"kindnet","plugins":[{"type":"ptp"}]}');
    expect(mayHoldSecrets(conf.toString())).toBe(false);
    expect(redactAsText('/etc/cni/net.d/10-kindnet.conflist', conf).data).toBe(conf);
  });
});
