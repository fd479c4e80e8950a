import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { redactFile } from '../redaction';
import { runTailJob, type TailJob } from './tail-job';
import { TailOffload } from './tail-offload';
import { BundleHost } from '../../host/bundle-host';

const REPO = path.resolve(__dirname, '../../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'tail-job-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LOG = '/var/log/containerd.log';
/** Secret shapes the line patterns hide, among ordinary lines. */
const LINES = [
  'time="2026-12-01T10:00:00Z" level=info msg="RunPodSandbox for &PodSandboxMetadata{Name:web}"',
  'time="2026-12-01T10:00:00Z" level=info msg="Authorization: Bearer SECRET-b1abcdefgh"',
  'password=SECRET-p1 and ToKeN=SECRET-p3',
  'args: --token=SECRET-f1 --v=2',
  'ünïcödé → auth=SECRET-u1',
];

/** A log of about `mib` MiB, with one line longer than a whole part (1 MiB) in the middle. */
function makeLog(name: string, mib: number, extra: Buffer = Buffer.alloc(0)): string {
  const one = `${LINES.join('\n')}\n`;
  const reps = Math.ceil((mib * 1024 * 1024) / one.length);
  const half = Buffer.from(one.repeat(reps >> 1));
  const long = Buffer.from(`${'x'.repeat(1_500_000)} secret=SECRET-long\n`);
  const p = path.join(dir, name);
  writeFileSync(p, Buffer.concat([half, long, extra, half]));
  return p;
}

function job(real: string, tail = Infinity, redact = true): TailJob {
  const size = readFileSync(real).length;
  return { real, nodePath: LOG, start: Math.max(0, size - tail), end: size, redact };
}

/** What the ordinary path records for the same tail. */
function expected(j: TailJob): ReturnType<typeof redactFile> {
  const tail = readFileSync(j.real).subarray(j.start, j.end);
  return j.redact ? redactFile(j.nodePath, tail) : { data: tail, redactions: [] };
}

function unpack(member: Uint8Array, length: number): Buffer {
  const all = gunzipSync(member);
  expect(all.length % 512, 'padded to a whole block').toBe(0);
  expect(all.subarray(length).every((b) => b === 0)).toBe(true);
  return all.subarray(0, length);
}

describe('runTailJob', () => {
  it('records exactly what the ordinary path records: bytes, redactions and their lines', () => {
    const real = makeLog('utf8.log', 5);
    for (const tail of [Infinity, 3 * 1024 * 1024 + 7]) {
      const j = job(real, tail);
      const out = runTailJob(j);
      const want = expected(j);
      if (!out.handled) throw new Error(out.why);
      expect(out.redactions).toEqual(want.redactions);
      expect(out.redactions.length).toBeGreaterThan(100);
      expect(unpack(out.member, out.length).equals(want.data)).toBe(true);
    }
  });

  it('numbers the lines right when secrets come only after parts with none (lines counted late)', () => {
    const plain = `${LINES[0] as string}\n`.repeat(40_000); // about 3.8 MiB: several parts
    const p = path.join(dir, 'late.log');
    writeFileSync(
      p,
      `${plain}password=SECRET-late1\n${plain}${plain}token=SECRET-late2\nauth=SECRET-late3\n${plain}`,
    );
    for (const tail of [Infinity, 6 * 1024 * 1024 + 3]) {
      const j = job(p, tail);
      const out = runTailJob(j);
      if (!out.handled) throw new Error(out.why);
      const want = expected(j);
      expect(out.redactions).toEqual(want.redactions);
      expect(out.redactions.length).toBe(tail === Infinity ? 3 : 2);
      expect(unpack(out.member, out.length).equals(want.data)).toBe(true);
    }
  });

  it('takes a tail that is not UTF-8 as latin1, like the whole-file path', () => {
    const real = makeLog('latin1.log', 3, Buffer.from('caf\xe9 password=SECRET-l1\n', 'latin1'));
    const j = job(real);
    const out = runTailJob(j);
    if (!out.handled) throw new Error(out.why);
    const want = expected(j);
    expect(out.redactions).toEqual(want.redactions);
    expect(unpack(out.member, out.length).equals(want.data)).toBe(true);
  });

  it("compresses at tar czf's level (gzip's default, 6), the floor collect is measured against", () => {
    const j = job(makeLog('level.log', 4), Infinity, false);
    const out = runTailJob(j);
    if (!out.handled) throw new Error(out.why);
    const whole = gzipSync(readFileSync(j.real), { level: 6 }).length;
    // One member per 1 MiB part costs a little; level 3 made this repetitive log twice as large.
    expect(out.member.length).toBeLessThan(whole * 1.15);
  });

  it('keeps the bytes as they are without redaction', () => {
    const j = job(makeLog('raw.log', 2), Infinity, false);
    const out = runTailJob(j);
    if (!out.handled) throw new Error(out.why);
    expect(unpack(out.member, out.length).equals(readFileSync(j.real))).toBe(true);
  });

  it('does not follow a symlink planted where a resolved tail was (noFollow, under --root)', () => {
    const target = makeLog('outside.log', 2);
    const link = path.join(dir, 'planted.log');
    symlinkSync(target, link);
    expect(runTailJob({ ...job(target), real: link, noFollow: true })).toMatchObject({
      handled: false,
      why: expect.stringMatching(/ELOOP/),
    });
    expect(runTailJob({ ...job(target), real: link })).toMatchObject({ handled: true });
  });

  it('leaves key blocks, structured text, FIFOs and missing files to the caller', () => {
    const pem = makeLog('pem.log', 2, Buffer.from('-----BEGIN RSA PRIVATE KEY-----\nAAAA\n'));
    expect(runTailJob(job(pem))).toEqual({ handled: false, why: 'holds a PEM key block' });
    const json = path.join(dir, 'json.log');
    writeFileSync(json, `  {"token": "SECRET"}\n${'x'.repeat(100)}`);
    expect(runTailJob(job(json))).toMatchObject({ handled: false });
    const blank = path.join(dir, 'blank.log');
    writeFileSync(blank, `${' '.repeat(300_000)}{"token": "SECRET"}`);
    expect(runTailJob(job(blank))).toMatchObject({ handled: false });
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const f = runTailJob({ real: fifo, nodePath: LOG, start: 0, end: 10, redact: true });
    expect(f).toEqual({ handled: false, why: 'not a regular file' });
    expect(
      runTailJob({
        ...f,
        real: path.join(dir, 'none'),
        nodePath: LOG,
        start: 0,
        end: 1,
        redact: true,
      }),
    ).toMatchObject({ handled: false });
  });
});

describe('the built worker (dist/tail-worker.cjs)', () => {
  const script = path.join(REPO, 'dist/tail-worker.cjs');

  it('answers jobs in order, and a job for a broken path says why', async () => {
    expect(existsSync(script), 'run npm run build first').toBe(true);
    const offload = new TailOffload(script);
    try {
      const real = makeLog('worker.log', 5);
      const [a, b] = await Promise.all([offload.run(job(real)), offload.run(job(real, 1 << 20))]);
      if (!a.handled || !b.handled) throw new Error('not handled');
      expect(unpack(a.member, a.length).equals(expected(job(real)).data)).toBe(true);
      expect(b.length).toBeLessThan(a.length);
      const gone = await offload.run({ ...job(real), real: path.join(dir, 'missing') });
      expect(gone).toMatchObject({ handled: false, why: expect.stringMatching(/ENOENT/) });
    } finally {
      await offload.close();
    }
  });

  it('gives collect a bundle whose log tail reads back redacted, from a multi-member archive', async () => {
    const root = path.join(dir, 'node');
    mkdirSync(path.join(root, 'var/log'), { recursive: true });
    mkdirSync(path.join(root, 'etc/cni/net.d'), { recursive: true });
    writeFileSync(
      path.join(root, 'etc/cni/net.d/10-a.conflist'),
      '{"cniVersion":"1.0.0","name":"a","plugins":[{"type":"bridge"}]}',
    );
    const real = makeLog('node/var/log/containerd.log', 6);
    const out = path.join(dir, 'b.tar.gz');
    const r = spawnSync(
      process.execPath,
      [path.join(REPO, 'bin/cni-doctor.cjs'), 'collect', '--root', root, '--out', out],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    // More than one gzip member: the tail came from the worker.
    const bytes = readFileSync(out);
    let members = 0;
    for (
      let i = bytes.indexOf(Buffer.from([0x1f, 0x8b, 8]));
      i !== -1;
      i = bytes.indexOf(Buffer.from([0x1f, 0x8b, 8]), i + 1)
    )
      members++;
    expect(members).toBeGreaterThan(2);
    const host = await BundleHost.open(out);
    const got = await host.readFile(LOG);
    if (!got.ok) throw new Error(got.message);
    const want = expected(job(real));
    expect(got.data.equals(want.data)).toBe(true);
    const listed = (host.manifest.redactions ?? []).filter((x) => x.path === LOG);
    expect(listed).toEqual(want.redactions);
  });
});
