import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signaturesFor } from './catalog';
import { scanFile, scanLog } from './scanner';
import type { LogSignature } from './types';

const sig = (id: string, pattern: string, literal: string): LogSignature => ({
  id,
  platform: 'any',
  pattern,
  literal,
  title: id,
  explanation: id,
  fix: id,
  kb: [],
  topic: `log.test.${id}`,
});

const SIGS = [
  sig('plugin', 'failed to find plugin "[^"]+" in path', 'failed to find plugin'),
  sig('netns', 'unexpected netNS', 'unexpected netNS'),
  sig('anyline', 'BOOM', ''),
];

async function* chunked(data: Uint8Array, sizes: number[]): AsyncGenerator<Uint8Array> {
  let i = 0;
  let k = 0;
  while (i < data.length) {
    const n = sizes[k++ % sizes.length] as number;
    yield data.subarray(i, i + n);
    i += n;
  }
}

async function* once(data: Uint8Array): AsyncGenerator<Uint8Array> {
  yield data;
}

const summary = (r: Awaited<ReturnType<typeof scanLog>>) =>
  r.matches.map((m) => `${m.line}:${m.signatureId}:${m.text}`);

const LOG = [
  'I1202 first line',
  'E1202 failed to find plugin "flannel" in path [/opt/cni/bin]',
  '',
  'W1202 Cannot get infra container ID, unexpected netNS: abc',
  'BOOM with failed to find plugin "x" in path [] and unexpected netNS',
  'the end, no newline: unexpected netNS',
].join('\n');

const EXPECTED = [
  '2:plugin:E1202 failed to find plugin "flannel" in path [/opt/cni/bin]',
  '4:netns:W1202 Cannot get infra container ID, unexpected netNS: abc',
  '5:plugin:BOOM with failed to find plugin "x" in path [] and unexpected netNS',
  '5:netns:BOOM with failed to find plugin "x" in path [] and unexpected netNS',
  '5:anyline:BOOM with failed to find plugin "x" in path [] and unexpected netNS',
  '6:netns:the end, no newline: unexpected netNS',
];

describe('scanLog', () => {
  it('finds matches with line numbers, including an unterminated last line', async () => {
    const r = await scanLog(once(Buffer.from(LOG)), 'kubelet.log', SIGS);
    expect(summary(r)).toEqual(EXPECTED);
    expect(r.matches.every((m) => m.path === 'kubelet.log')).toBe(true);
    expect(r).toMatchObject({
      lines: 6,
      truncatedLines: 0,
      droppedMatches: 0,
      bytesScanned: Buffer.byteLength(LOG),
    });
    expect(r.error).toBeUndefined();
  });

  it('gives the same answer whatever the chunk boundaries (1 to 7 bytes)', async () => {
    const data = Buffer.from(LOG);
    for (const sizes of [[1], [2], [3], [5], [7], [1, 7, 2, 6, 3, 5, 4]]) {
      const r = await scanLog(chunked(data, sizes), 'x', SIGS);
      expect([sizes, summary(r), r.lines]).toEqual([sizes, EXPECTED, 6]);
    }
  });

  it.each(['linux', 'windows'] as const)(
    'finds every %s catalog example, also across tiny chunks',
    async (os) => {
      const sigs = signaturesFor(os);
      const lines = sigs.map((s) => `Dec 02 node1 containerd[1]: ${s.example ?? ''}`);
      const data = Buffer.from(lines.join('\n') + '\n');
      const whole = await scanLog(once(data), 'x', sigs);
      const tiny = await scanLog(chunked(data, [1, 3, 7, 2]), 'x', sigs);
      expect(tiny.matches).toEqual(whole.matches);
      sigs.forEach((s, i) => {
        expect([
          s.id,
          whole.matches.some((m) => m.signatureId === s.id && m.line === i + 1),
        ]).toEqual([s.id, true]);
      });
    },
  );

  it('strips CR from CRLF lines', async () => {
    const data = Buffer.from('a\r\nunexpected netNS\r\nfailed to find plugin "p" in path [x]\r\n');
    for (const sizes of [[data.length], [1], [4]]) {
      const r = await scanLog(chunked(data, sizes), 'x', SIGS);
      expect(summary(r)).toEqual([
        '2:netns:unexpected netNS',
        '3:plugin:failed to find plugin "p" in path [x]',
      ]);
      expect(r.lines).toBe(3);
    }
  });

  it('decodes UTF-16LE with a BOM (Windows PowerShell output), even split at odd bytes', async () => {
    const text =
      'line one é\r\nCannot get infra container ID, unexpected netNS: 9f\r\nlast 😀 unexpected netNS';
    const data = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    for (const sizes of [[data.length], [1], [3], [7]]) {
      const r = await scanLog(chunked(data, sizes), 'x', SIGS);
      expect([sizes, summary(r)]).toEqual([
        sizes,
        [
          '2:netns:Cannot get infra container ID, unexpected netNS: 9f',
          '3:netns:last 😀 unexpected netNS',
        ],
      ]);
      expect(r.bytesScanned).toBe(data.length);
    }
  });

  it('decodes UTF-16BE with a BOM and UTF-16LE without one', async () => {
    const text = 'x\nunexpected netNS here\n';
    const be = Buffer.from(text, 'utf16le').swap16();
    const r1 = await scanLog(
      chunked(Buffer.concat([Buffer.from([0xfe, 0xff]), be]), [3]),
      'x',
      SIGS,
    );
    expect(summary(r1)).toEqual(['2:netns:unexpected netNS here']);
    const r2 = await scanLog(once(Buffer.from(text, 'utf16le')), 'x', SIGS);
    expect(summary(r2)).toEqual(['2:netns:unexpected netNS here']);
  });

  it('strips a UTF-8 BOM and replaces invalid UTF-8', async () => {
    const data = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('unexpected netNS '),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('\n'),
    ]);
    const r = await scanLog(once(data), 'x', SIGS);
    expect(summary(r)).toEqual(['1:netns:unexpected netNS \uFFFD(\uFFFD']);
  });

  it('truncates over-long lines, counts them, and matches only their first maxLineBytes', async () => {
    const long = 'unexpected netNS ' + 'x'.repeat(200) + ' failed to find plugin "p" in path [y]';
    const data = Buffer.from(`short\n${long}\n${'y'.repeat(150)}\nunexpected netNS last`);
    for (const sizes of [[data.length], [1], [7], [64]]) {
      const r = await scanLog(chunked(data, sizes), 'x', SIGS, { maxLineBytes: 100 });
      expect([sizes, r.lines, r.truncatedLines]).toEqual([sizes, 4, 2]);
      expect(summary(r)).toEqual([
        `2:netns:${long.slice(0, 100)}`,
        '4:netns:unexpected netNS last',
      ]);
    }
  });

  it('does not count the CR of a CRLF towards the line length', async () => {
    const data = Buffer.from(`${'a'.repeat(10)}\r\n${'b'.repeat(11)}\r\n`);
    for (const sizes of [[data.length], [1], [5]]) {
      const r = await scanLog(chunked(data, sizes), 'x', SIGS, { maxLineBytes: 10 });
      expect([sizes, r.lines, r.truncatedLines]).toEqual([sizes, 2, 1]);
    }
  });

  it('caps match text at 2,000 characters', async () => {
    const line = 'unexpected netNS ' + 'z'.repeat(5000);
    const r = await scanLog(once(Buffer.from(line)), 'x', SIGS);
    expect(r.matches[0]?.text).toBe(line.slice(0, 2000));
  });

  it('survives binary garbage with NULs', async () => {
    const garbage = Buffer.alloc(300_000);
    let s = 7;
    for (let i = 0; i < garbage.length; i++) {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      garbage[i] = s % 7 === 0 ? 0 : s & 0xff;
    }
    const data = Buffer.concat([garbage, Buffer.from('\nunexpected netNS\0after\n'), garbage]);
    const r = await scanLog(chunked(data, [4096, 1, 65536]), 'x', SIGS, { maxLineBytes: 1024 });
    expect(
      r.matches.some((m) => m.signatureId === 'netns' && m.text === 'unexpected netNS\0after'),
    ).toBe(true);
    expect(r.bytesScanned).toBe(data.length);
    expect(r.lines).toBeGreaterThan(2);
  });

  it('streams a huge line without a newline in bounded memory', async () => {
    const mib = Buffer.alloc(1 << 20, 0x61);
    async function* huge(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('unexpected netNS at the start ');
      for (let i = 0; i < 64; i++) yield mib;
    }
    const before = process.memoryUsage().arrayBuffers;
    const r = await scanLog(huge(), 'x', SIGS);
    expect(r).toMatchObject({ lines: 1, truncatedLines: 1 });
    expect(r.matches.map((m) => m.text.length)).toEqual([2000]);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 << 20);
  });

  it('keeps the last N matches per signature and counts the rest', async () => {
    const lines: string[] = [];
    for (let i = 1; i <= 10; i++)
      lines.push(`unexpected netNS #${i}`, `failed to find plugin "p${i}" in path [x]`);
    lines.push('unexpected netNS #11');
    const r = await scanLog(once(Buffer.from(lines.join('\n'))), 'x', SIGS, {
      maxMatchesPerSignature: 3,
    });
    // The 3 most recent per signature, in file order.
    expect(summary(r)).toEqual([
      '16:plugin:failed to find plugin "p8" in path [x]',
      '17:netns:unexpected netNS #9',
      '18:plugin:failed to find plugin "p9" in path [x]',
      '19:netns:unexpected netNS #10',
      '20:plugin:failed to find plugin "p10" in path [x]',
      '21:netns:unexpected netNS #11',
    ]);
    expect(r.droppedMatches).toBe(11 - 3 + (10 - 3));
  });

  it('keeps nothing with a limit of 0 and everything with Infinity', async () => {
    const data = Buffer.from('unexpected netNS\n'.repeat(100));
    const none = await scanLog(once(data), 'x', SIGS, { maxMatchesPerSignature: 0 });
    expect([none.matches.length, none.droppedMatches]).toEqual([0, 100]);
    const all = await scanLog(once(data), 'x', SIGS, { maxMatchesPerSignature: Infinity });
    expect([all.matches.length, all.droppedMatches]).toEqual([100, 0]);
    const dflt = await scanLog(once(data), 'x', SIGS);
    expect([dflt.matches.length, dflt.droppedMatches, dflt.matches[0]?.line]).toEqual([50, 50, 51]);
  });

  it('handles empty input, empty lines and a lone CR', async () => {
    expect(await scanLog(once(Buffer.alloc(0)), 'x', SIGS)).toEqual({
      matches: [],
      bytesScanned: 0,
      lines: 0,
      truncatedLines: 0,
      droppedMatches: 0,
    });
    expect((await scanLog(once(Buffer.from('\n\n\n')), 'x', SIGS)).lines).toBe(3);
    expect((await scanLog(once(Buffer.from('\r')), 'x', SIGS)).lines).toBe(1);
  });

  it('reports a failing source as an error and keeps what it found', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('unexpected netNS\npartial unexpected netNS');
      throw Object.assign(new Error('disk gone'), { code: 'EIO' });
    }
    const r = await scanLog(failing(), 'x', SIGS);
    expect(r.error).toBe('EIO');
    expect(summary(r)).toEqual(['1:netns:unexpected netNS', '2:netns:partial unexpected netNS']);
  });

  it('ignores a signature whose pattern does not compile', async () => {
    const bad = sig('bad', 'unexpected netNS (', 'unexpected netNS');
    const r = await scanLog(once(Buffer.from('unexpected netNS (\n')), 'x', [bad, ...SIGS]);
    expect(r.matches.map((m) => m.signatureId)).toEqual(['netns']);
    expect(r.error).toBeUndefined();
  });
});

describe('scanFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'logscan-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('scans a file on disk', async () => {
    const file = join(dir, 'containerd.log');
    writeFileSync(file, 'a\nCannot get infra container ID, unexpected netNS: x\n');
    const r = await scanFile(file, SIGS);
    expect(summary(r)).toEqual(['2:netns:Cannot get infra container ID, unexpected netNS: x']);
    expect(r.matches[0]?.path).toBe(file);
    expect(r.error).toBeUndefined();
  });

  it('returns the error code instead of throwing', async () => {
    expect((await scanFile(join(dir, 'missing.log'), SIGS)).error).toBe('ENOENT');
    expect((await scanFile(dir, SIGS)).error).toBe('EISDIR');
  });

  it.skipIf(process.getuid?.() === 0 || process.platform === 'win32')(
    'reports EACCES for an unreadable file',
    async () => {
      const file = join(dir, 'secret.log');
      writeFileSync(file, 'unexpected netNS\n');
      chmodSync(file, 0o000);
      const r = await scanFile(file, SIGS);
      expect(r).toMatchObject({ error: 'EACCES', matches: [], lines: 0 });
    },
  );
});
