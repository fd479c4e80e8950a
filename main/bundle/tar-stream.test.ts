import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Parser, type ReadEntry } from 'tar';
import { gzipStream, tarOf } from './tar-stream';

async function readBack(
  source: AsyncIterable<Buffer>,
): Promise<{ path: string; type: string; mode: number; data: string }[]> {
  const out: { path: string; type: string; mode: number; data: string }[] = [];
  const parser = new Parser({ strict: true });
  parser.on('entry', (e: ReadEntry) => {
    const chunks: Buffer[] = [];
    e.on('data', (c: Buffer) => chunks.push(c));
    e.on('end', () =>
      out.push({
        path: e.path,
        type: e.type,
        mode: (e.mode ?? 0) & 0o777,
        data: Buffer.concat(chunks).toString('utf8'),
      }),
    );
  });
  const done = new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', reject);
  });
  Readable.from(source).pipe(parser);
  await done;
  return out;
}

describe('tarOf + gzipStream', () => {
  it('writes files (and their folders) that tar reads back byte for byte, long paths included', async () => {
    const long = `files/${'d'.repeat(120)}/${'f'.repeat(90)}.conflist`;
    const entries = await readBack(
      gzipStream(
        tarOf([
          { path: 'manifest.json', data: Buffer.from('{"format":"x"}\n') },
          { path: 'files/etc/cni/net.d/10-a.conflist', data: Buffer.from('{"a":1}') },
          { path: long, data: Buffer.alloc(1000, 'x') },
          // A node that changed mid-scan: a file where a folder already is, and below a file.
          { path: 'files/etc/cni', data: Buffer.from('clash') },
          { path: 'files/etc/cni/net.d/10-a.conflist/inner', data: Buffer.from('clash') },
          // Another file in a folder already written, then a path given again: the first stays.
          { path: 'files/etc/cni/net.d/20-b.conflist', data: Buffer.from('{"b":2}') },
          { path: 'files/etc/cni/net.d/10-a.conflist', data: Buffer.from('again') },
          { path: 'files/etc/cni/net.d', data: Buffer.from('clash') },
        ]),
      ),
    );
    const files = entries.filter((e) => e.type === 'File');
    expect(files.map((e) => e.path)).toEqual([
      'manifest.json',
      'files/etc/cni/net.d/10-a.conflist',
      long,
      'files/etc/cni/net.d/20-b.conflist',
    ]);
    expect(files[2]?.data).toBe('x'.repeat(1000));
    expect(files.map((f) => f.data)).toEqual([
      '{"format":"x"}\n',
      '{"a":1}',
      'x'.repeat(1000),
      '{"b":2}',
    ]);
    expect(files.every((f) => f.mode === 0o600)).toBe(true);
    expect(entries.filter((e) => e.type === 'Directory').map((e) => e.path)).toContain(
      'files/etc/cni/net.d/',
    );
  });
});
