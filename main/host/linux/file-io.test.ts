import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blockingIo, threadPoolIo, type FileIo } from './file-io';
import { LinuxHost } from '../linux-host';

const dir = mkdtempSync(path.join(os.tmpdir(), 'file-io-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(path.join(dir, 'small'), 'hello\n');
writeFileSync(path.join(dir, 'big'), Buffer.alloc(3 * 1024 * 1024 + 17, 0x61));
mkdirSync(path.join(dir, 'sub'));
symlinkSync('loop-b', path.join(dir, 'loop-a'));
symlinkSync('loop-a', path.join(dir, 'loop-b'));
symlinkSync('small', path.join(dir, 'link'));
execFileSync('mkfifo', [path.join(dir, 'fifo')]);

/** What a call gave: its value, or the error code it failed with. */
async function outcome<T>(call: () => Promise<T>): Promise<T | string> {
  try {
    return await call();
  } catch (e) {
    return `error ${(e as NodeJS.ErrnoException).code}`;
  }
}

async function collect(it: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of it) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

/** Everything a host asks of its FileIo, over every kind of entry in the folder. */
async function answers(io: FileIo): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const name of ['small', 'big', 'sub', 'loop-a', 'link', 'fifo', 'missing']) {
    const p = path.join(dir, name);
    out.push(await outcome(async () => (await io.lstat(p)).isSymbolicLink()));
    out.push(await outcome(async () => (await io.stat(p)).size));
    out.push(await outcome(() => io.readlink(p)));
    out.push(await outcome(async () => (await io.readdir(p)).sort()));
    for (const max of [0, 3, 1 << 30])
      out.push(
        await outcome(async () => {
          const r = await io.readRegular(p, max);
          return { ...r, data: r.data.toString('base64') };
        }),
      );
    out.push(await outcome(async () => (await collect(io.readRange(p, 2, 1_100_000))).length));
  }
  // /proc files report size 0 and still have content.
  out.push((await io.readRegular('/proc/self/status', 1 << 20)).data.length > 0);
  return out;
}

describe('FileIo', () => {
  it('answers alike whether its calls block or go to the thread pool', async () => {
    const blocking = await answers(blockingIo);
    expect(blocking).toEqual(await answers(threadPoolIo));
    // The cases mean what they say: the FIFO is refused unread, the loop fails, the cap holds.
    expect(blocking).toContain('error ELOOP');
    expect(blocking).toContainEqual({ data: '', size: 0, notRegular: 'other' });
    expect(blocking).toContainEqual({ data: 'aGVs', size: 6 });
  });

  it('reads a range straight into the caller buffer while it fits, then into chunks', async () => {
    for (const io of [blockingIo, threadPoolIo]) {
      const into = Buffer.alloc(1024 * 1024 + 5);
      const chunks: Uint8Array[] = [];
      for await (const c of io.readRange(path.join(dir, 'big'), 0, 3 * 1024 * 1024, into))
        chunks.push(c);
      expect(chunks.map((c) => c.buffer === into.buffer)).toEqual([true, true, false, false]);
      expect(chunks.reduce((n, c) => n + c.length, 0)).toBe(3 * 1024 * 1024);
    }
  });

  it('reads every chunk of a reused range into one buffer, each right when it is yielded', async () => {
    const want = await collect(blockingIo.readRange(path.join(dir, 'big'), 7, 3 * 1024 * 1024));
    for (const io of [blockingIo, threadPoolIo]) {
      const buffers = new Set<ArrayBufferLike>();
      const parts: Buffer[] = [];
      const range = io.readRange(path.join(dir, 'big'), 7, 3 * 1024 * 1024, undefined, {
        reuse: true,
      });
      for await (const c of range) {
        buffers.add(c.buffer);
        parts.push(Buffer.from(c)); // a copy: the next chunk overwrites this one
      }
      expect(parts.length).toBe(3);
      expect(buffers.size).toBe(1);
      expect(Buffer.concat(parts).equals(want)).toBe(true);
    }
  });

  it('gives a blocking host the same scan answers as a thread-pool one (FIFO included)', async () => {
    const root = path.join(dir, 'root');
    mkdirSync(path.join(root, 'etc/cni/net.d'), { recursive: true });
    writeFileSync(path.join(root, 'etc/cni/net.d/10-a.conflist'), '{"name":"a"}');
    execFileSync('mkfifo', [path.join(root, 'etc/cni/net.d/20-fifo.conflist')]);
    const ask = async (host: LinuxHost): Promise<unknown[]> => [
      await host.listDir('/etc/cni/net.d'),
      await host.readFile('/etc/cni/net.d/10-a.conflist'),
      await host.readFile('/etc/cni/net.d/20-fifo.conflist'),
      await host.readFile('/etc/cni'),
      await host.stat('/etc/cni/net.d/20-fifo.conflist'),
    ];
    const blocking = await ask(new LinuxHost({ root, blockingIo: true }));
    expect(blocking).toEqual(await ask(new LinuxHost({ root })));
    expect(blocking[2]).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not a regular/),
    });
  });
});

describe('a file swapped for a symlink after the scan resolved it (under --root)', () => {
  it('is not followed out of the root: the read fails instead', async () => {
    for (const blocking of [true, false]) {
      const root = mkdtempSync(path.join(dir, 'swap-'));
      const outside = path.join(dir, `outside-${blocking}`);
      writeFileSync(outside, 'SECRET from the machine running the scan\n');
      mkdirSync(path.join(root, 'etc/cni/net.d'), { recursive: true });
      mkdirSync(path.join(root, 'var/log'), { recursive: true });
      const conf = path.join(root, 'etc/cni/net.d/10-a.conflist');
      const log = path.join(root, 'var/log/containerd.log');
      writeFileSync(conf, '{"name":"a"}');
      writeFileSync(log, 'line\n');
      const host = new LinuxHost({ root, blockingIo: blocking });
      // The scan resolves (and keeps) both paths first, as its stat before the read does ...
      expect(await host.stat('/etc/cni/net.d/10-a.conflist')).toMatchObject({ ok: true });
      expect(await host.stat('/var/log/containerd.log')).toMatchObject({ ok: true });
      // ... then a writer on the examined disk swaps them for links out of the root.
      rmSync(conf);
      symlinkSync(outside, conf);
      rmSync(log);
      symlinkSync(outside, log);
      const r = await host.readFile('/etc/cni/net.d/10-a.conflist');
      expect(r.ok).toBe(false);
      let streamed = '';
      try {
        for await (const c of host.streamFile('/var/log/containerd.log'))
          streamed += Buffer.from(c).toString();
      } catch (e) {
        expect((e as NodeJS.ErrnoException).code).toBe('ELOOP');
      }
      expect(streamed).not.toContain('SECRET');
    }
  });
});
