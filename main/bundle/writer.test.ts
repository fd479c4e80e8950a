import { afterAll, describe, expect, it } from 'vitest';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BUNDLE_FORMAT, type BundleManifest } from './manifest';
import { writeBundleArchive, writeBundleDir } from './writer';
import { openBundleStore } from './store';

const work = mkdtempSync(path.join(tmpdir(), 'bundle-writer-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const manifest: BundleManifest = { format: BUNDLE_FORMAT, host: { os: 'linux' } };
const files = [{ path: '/etc/cni/net.d/10-a.conflist', data: Buffer.from('{"x":1}') }];

function fresh(name: string): string {
  const dir = path.join(work, name);
  mkdirSync(dir);
  return dir;
}

describe('bundle outputs (issue 9 item 5)', () => {
  it('never follows a planted <out>.partial symlink, and the bundle is 0600', async () => {
    const dir = fresh('planted');
    const victim = path.join(dir, 'victim');
    writeFileSync(victim, 'precious\n', { mode: 0o644 });
    const out = path.join(dir, 'b.tar.gz');
    symlinkSync(victim, `${out}.partial`);
    await writeBundleArchive(out, 'linux', manifest, files);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(`${out}.partial`).isSymbolicLink()).toBe(true);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const store = await openBundleStore(out);
    expect(JSON.parse(await store.readManifest())).toMatchObject({ format: BUNDLE_FORMAT });
    // No temp file left beside it.
    expect(readdirSync(dir).sort()).toEqual(['b.tar.gz', 'b.tar.gz.partial', 'victim']);
  });

  it('replaces a symlink at <out> itself instead of writing through it', async () => {
    const dir = fresh('out-link');
    const victim = path.join(dir, 'victim');
    writeFileSync(victim, 'precious\n');
    const out = path.join(dir, 'b.tar.gz');
    symlinkSync(victim, out);
    await writeBundleArchive(out, 'linux', manifest, files);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(out).isFile()).toBe(true);
  });

  it('writes a folder bundle only into a new private folder', async () => {
    const dir = fresh('folder');
    const out = path.join(dir, 'bundle');
    await writeBundleDir(out, 'linux', manifest, files);
    expect(statSync(out).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(out, 'manifest.json')).mode & 0o777).toBe(0o600);
    const conf = path.join(out, 'files', 'etc', 'cni', 'net.d', '10-a.conflist');
    expect(statSync(conf).mode & 0o777).toBe(0o600);
    // An existing folder could hold planted links: refused, nothing written.
    await expect(writeBundleDir(out, 'linux', manifest, files)).rejects.toThrow(/already exists/);
  });

  it('says which output it could not write', async () => {
    const out = path.join(work, 'missing', 'b.tar.gz');
    await expect(writeBundleArchive(out, 'linux', manifest, files)).rejects.toThrow(
      /cannot write .*b\.tar\.gz: no such file or folder \(its folder\)$/,
    );
  });
});
