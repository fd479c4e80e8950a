import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BundleHost } from './bundle-host';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-empty-dir-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a hand-made bundle folder', () => {
  it('lists an empty folder under files/ as empty, not as unrecorded', async () => {
    fs.writeFileSync(
      path.join(dir, 'manifest.json'),
      JSON.stringify({ format: 'cni-doctor.bundle/v1', host: { os: 'linux' } }),
    );
    fs.mkdirSync(path.join(dir, 'files/etc/cni/net.d'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'files/etc/containerd'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'files/etc/containerd/config.toml'), 'version = 2\n');
    const host = await BundleHost.open(dir);
    expect(await host.listDir('/etc/cni/net.d')).toEqual({ ok: true, entries: [] });
    expect(await host.stat('/etc/cni/net.d')).toMatchObject({ ok: true, type: 'dir' });
    expect(await host.listDir('/etc/cni')).toEqual({ ok: true, entries: ['net.d'] });
    await host.close();
  });
});
