import { describe, expect, it } from 'vitest';
import { BYTE_REDACTION_BYTES, plainFreeText, redactAsText, redactFile } from '.';
import { redactFreeTextBytes } from './free-text';
import { SECRET_FILES } from './secret-shapes.testutil';

const LOG = '/var/log/containerd.log';

/** Lines of every shape the line patterns know, in odd cases and encodings, and prose. */
const SHAPES = [
  'time="2026-12-01T10:00:00Z" level=info msg="RunPodSandbox for &PodSandboxMetadata{Name:web}"',
  'time="2026-12-01T10:00:00Z" level=info msg="Authorization: Bearer SECRET-b1abcdefgh"',
  'time="2026-12-01T10:00:01Z" level=info msg="loaded" config={"password":"SECRET-j1"}',
  'level=error msg="failed to get token: the server has asked for the client to provide credentials"',
  'password=SECRET-p1',
  'PASSWORD = SECRET-p2 and ToKeN=SECRET-p3; Api_Key="SECRET-p4"',
  '  client_secret: SECRET-y1',
  '- token: SECRET-y2',
  'args: --token=SECRET-f1 --v=2 --bootstrap-token \'SECRET-f2\' --password "SECRET-f3"',
  'msg="exec kubelet --k8s-api-token=\\"SECRET-f4\\" --x"',
  'ünïcödé prefix → auth=SECRET-u1 then 日本語 token="SECRET-u2" ✓',
  'crlf line with secret=SECRET-c1\r',
  'Bearer    SECRET-b2xxxxxxxx and private_key=SECRET-k1',
  'curl -H "authorization: bearer SECRET-b3xxxxxxxx" and BEARER SECRET-b4xxxxxxxx',
  'apikey=SECRET-k2 key-data=SECRET-k3 authz=nothing',
  'nothing to see here, just a key word',
  'token=REDACTED already and password=""',
];

function log(lines: readonly string[], repeat: number): Buffer {
  const one = `${lines.join('\n')}\n`;
  return Buffer.from(one.repeat(repeat), 'utf8');
}

function expectSame(path: string, data: Buffer): void {
  const slow = redactAsText(path, data);
  const fast = redactFreeTextBytes(path, data);
  expect(fast?.redactions).toEqual(slow.redactions);
  expect(fast?.data.equals(slow.data)).toBe(true);
}

describe('free text redacted over bytes gives what the string path gives', () => {
  it('for the free-text secret shapes', () => {
    // (A unit file starting with `[Service]` might be JSON: the string path takes it.)
    const texts = SECRET_FILES.filter((x) => x.format === 'text' && x.text[0] !== '[');
    expect(texts.length).toBeGreaterThan(0);
    for (const f of texts) {
      const data = Buffer.from(f.text);
      expect(plainFreeText(f.path, data), f.path).toBe(true);
      expectSame(f.path, data);
      expect(redactFreeTextBytes(f.path, data)?.redactions.length).toBeGreaterThan(0);
    }
  });

  it('for a multi-MiB UTF-8 log, across the search windows', () => {
    const data = log(SHAPES, 4000);
    expect(data.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(plainFreeText(LOG, data)).toBe(true);
    expectSame(LOG, data);
    const { data: out, redactions } = redactFile(LOG, data);
    expect(out.toString('utf8')).not.toMatch(/SECRET-/);
    expect(redactions.length).toBe(4000 * 21);
    // Same line count: findings keep their line numbers.
    expect(out.toString('utf8').split('\n').length).toBe(data.toString('utf8').split('\n').length);
  });

  it('for a hint word split by every window seam', () => {
    for (let shift = 0; shift < 8; shift++) {
      const filler = 'x'.repeat(1024 * 1024 - 3 - shift);
      const data = Buffer.from(`${filler}\nTOKEN=SECRET-seam\n${'y'.repeat(300_000)}\n`);
      expectSame(LOG, data);
      expect(redactFile(LOG, data).data.toString()).not.toContain('SECRET-');
    }
  });

  it('for short hinted lines packed across a window seam, each line named once, in order', () => {
    for (let shift = 0; shift < 24; shift++) {
      const filler = 'x'.repeat(1024 * 1024 - 40 - shift);
      const dense = Array.from({ length: 12 }, (_, i) => `@ k=1\nT=${i} token=S${i}\n`).join('');
      const data = Buffer.from(`${filler}\n${dense}${'y'.repeat(1000)}\n`);
      expectSame(LOG, data);
      expect(redactFile(LOG, data).redactions.length).toBe(12);
    }
  });

  it('for every hint word, in mixed case, at random places around the window seams', () => {
    // A fixed seed: the same cases every run. Words are searched window by window, so words
    // cut by a seam (their first letters in the window before) are the ones worth trying.
    let seed = 0x2545f491;
    const rnd = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const words = ['token', 'password', 'secret', 'private_key', 'apikey', 'auth', 'bearer'];
    for (let round = 0; round < 12; round++) {
      const parts: string[] = [];
      let size = 0;
      while (size < 2 * 1024 * 1024 + 64) {
        const word = [...(words[rnd(words.length)] as string)]
          .map((c) => (rnd(2) ? c.toUpperCase() : c))
          .join('');
        const filler = 'x'.repeat(rnd(200_000));
        const line = `${filler}${rnd(3) ? ' ' : ''}${word}=SECRET-r${round}\n`;
        parts.push(line);
        size += line.length;
      }
      const data = Buffer.from(parts.join(''));
      expectSame(LOG, data);
      expect(redactFile(LOG, data).redactions.length).toBeGreaterThan(parts.length / 2);
    }
  });

  it('for a file that is not UTF-8 (latin1 bytes stay as they were)', () => {
    const data = Buffer.concat([
      Buffer.from([0xe9, 0xff, 0x20]),
      log(SHAPES, 600),
      Buffer.from('caf\xe9 password=SECRET-l1 \xfc\n', 'latin1'),
    ]);
    expect(data.length).toBeGreaterThan(BYTE_REDACTION_BYTES);
    expectSame(LOG, data);
    const out = redactFile(LOG, data).data;
    expect(out.subarray(0, 3)).toEqual(Buffer.from([0xe9, 0xff, 0x20]));
    expect(out.toString('latin1')).not.toContain('SECRET-');
  });

  it('for UTF-8 holding a literal replacement character (decoded as latin1 by both)', () => {
    expectSame(LOG, Buffer.from(`\uFFFD ${log(SHAPES, 50).toString()}`));
  });

  it('hands back the same buffer when there is nothing to hide', () => {
    const data = log([SHAPES[0] as string], 5000);
    expect(redactFile(LOG, data).data).toBe(data);
  });

  it('leaves structured, PEM-holding and YAML-looking files to the string path', () => {
    const big = 'x'.repeat(BYTE_REDACTION_BYTES);
    expect(plainFreeText(LOG, Buffer.from(`  {"a": "${big}"}`))).toBe(false);
    expect(plainFreeText(LOG, Buffer.from(`[${big}]`))).toBe(false);
    expect(plainFreeText(LOG, Buffer.from(`\uFEFF{"a": 1}\n${big}`))).toBe(false);
    expect(plainFreeText(LOG, Buffer.from(`x\napiVersion: v1\n${big}`))).toBe(false);
    expect(plainFreeText('/etc/containerd/config.toml', Buffer.from(big))).toBe(false);
    expect(plainFreeText('/root/.kube/config.yaml', Buffer.from(big))).toBe(false);
    const pem = `${big}\n-----BEGIN RSA PRIVATE KEY-----\nSECRET-pem\n-----END RSA PRIVATE KEY-----\n`;
    expect(plainFreeText(LOG, Buffer.from(pem))).toBe(false);
    // The byte path sees the key block on its own and leaves it to the string path.
    expect(redactFreeTextBytes(LOG, Buffer.from(pem))).toBeUndefined();
    expect(redactFreeTextBytes(LOG, Buffer.from(pem.toLowerCase()))).toBeDefined();
    expect(redactFile(LOG, Buffer.from(pem)).data.toString()).not.toContain('SECRET-pem');
  });
});
