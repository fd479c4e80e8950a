/**
 * A log tail recorded by collect is read straight into the recording's buffer (StreamOptions
 * `into`): the bytes must be the node's whatever the file does meanwhile — grow, shrink, or be
 * larger than the buffer.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { LinuxHost } from './linux-host';
import { RecordingHost } from './recording-host';

const work = mkdtempSync(path.join(tmpdir(), 'recording-stream-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function node(name: string, log: Buffer): { root: string; host: LinuxHost } {
  const root = path.join(work, name);
  mkdirSync(path.join(root, 'var/log'), { recursive: true });
  writeFileSync(path.join(root, 'var/log/containerd.log'), log);
  return { root, host: new LinuxHost({ root }) };
}

const LOG = '/var/log/containerd.log';
const bytes = (n: number, seed: number): Buffer =>
  Buffer.from(Array.from({ length: n }, (_, i) => 32 + ((i * 7 + seed) % 90)));

async function drain(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of source) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

async function record(host: LinuxHost, between?: () => void, tailBytes = 1 << 30): Promise<Buffer> {
  let kept: Buffer | undefined;
  const rec = new RecordingHost(host, {
    redact: false,
    collectorVersion: 't',
    sink: (p, data) => {
      if (p === LOG) kept = data;
    },
  });
  await rec.stat(LOG);
  between?.();
  await drain(rec.streamFile(LOG, { tailBytes }));
  return kept as Buffer;
}

describe('log tails read in place', () => {
  it('yields views of the given buffer, in order, holding the tail', async () => {
    const log = bytes(3 * 1024 * 1024 + 17, 1);
    const { host } = node('views', log);
    const into = Buffer.alloc(2 * 1024 * 1024);
    const seen: Uint8Array[] = [];
    for await (const c of host.streamFile(LOG, { tailBytes: into.length, into })) seen.push(c);
    expect(seen.every((c) => c.buffer === into.buffer)).toBe(true);
    expect(into.equals(log.subarray(log.length - into.length))).toBe(true);
  });

  it('never hands a reused buffer on to what it keeps: the recording asks for its own', async () => {
    const log = bytes(2 * 1024 * 1024 + 99, 5);
    const { host } = node('reuse', log);
    let kept: Buffer | undefined;
    const rec = new RecordingHost(host, {
      redact: false,
      collectorVersion: 't',
      sink: (p, data) => {
        if (p === LOG) kept = data;
      },
    });
    await rec.stat(LOG);
    await drain(rec.streamFile(LOG, { reuse: true }));
    expect(kept?.equals(log)).toBe(true);
    // Without a stat first the recording joins the chunks it was given: they must be its own.
    const rec2 = new RecordingHost(host, {
      redact: false,
      collectorVersion: 't',
      sink: (p, data) => {
        if (p === LOG) kept = data;
      },
    });
    await drain(rec2.streamFile(LOG, { reuse: true }));
    expect(kept?.equals(log)).toBe(true);
  });

  it('gives what does not fit as chunks of their own', async () => {
    const log = bytes(1024 * 1024 + 5000, 2);
    const { host } = node('overflow', log);
    const into = Buffer.alloc(4096);
    expect((await drain(host.streamFile(LOG, { into }))).equals(log)).toBe(true);
  });

  it('records the tail of a log that grew after its stat', async () => {
    const log = bytes(300_000, 3);
    const { root, host } = node('grew', log);
    const more = bytes(70_000, 4);
    const data = await record(host, () =>
      appendFileSync(path.join(root, 'var/log/containerd.log'), more),
    );
    expect(data.equals(Buffer.concat([log, more]))).toBe(true);
    const tail = await record(host, undefined, 100_000);
    expect(tail.equals(Buffer.concat([log, more]).subarray(-100_000))).toBe(true);
  });

  it('records what is left of a log truncated after its stat', async () => {
    const log = bytes(300_000, 5);
    const { root, host } = node('shrank', log);
    const data = await record(host, () =>
      truncateSync(path.join(root, 'var/log/containerd.log'), 1000),
    );
    expect(data.equals(log.subarray(0, 1000))).toBe(true);
  });
});
