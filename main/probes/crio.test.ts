import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { known } from '../../shared/model/fact';
import { BundleHost } from '../host/bundle-host';
import { ProbeContext } from './context';
import { probeCrio } from './crio';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A folder bundle holding one /etc/crio/crio.conf. */
async function crioWith(conf: string): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'crio-probe-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'files/etc/crio'), { recursive: true });
  writeFileSync(path.join(dir, 'files/etc/crio/crio.conf'), conf);
  writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({
      format: 'cni-doctor.bundle/v1',
      host: { os: 'linux' },
      paths: { '/etc/crio/crio.conf.d': { type: 'missing' } },
    }),
  );
  const r = await probeCrio(new ProbeContext(await BundleHost.open(dir)), known([]));
  if (!r.known || !r.value) throw new Error('CRI-O not found');
  return r.value.cni.binDirs.value;
}

describe('probeCrio plugin dirs', () => {
  // docs/knowledge/cri-o.md#the-crionetwork-table: the deprecated plugin_dir is appended to plugin_dirs, not ignored.
  it('honours the deprecated plugin_dir string next to the default plugin_dirs', async () => {
    expect(await crioWith('[crio.network]\nplugin_dir = "/usr/libexec/cni/"\n')).toEqual([
      '/opt/cni/bin',
      '/usr/libexec/cni',
    ]);
  });

  it('appends plugin_dir to an explicit plugin_dirs, without duplicates', async () => {
    expect(
      await crioWith(
        '[crio.network]\nplugin_dirs = ["/opt/cni/bin/", "/usr/lib/cni"]\nplugin_dir = "/usr/libexec/cni"\n',
      ),
    ).toEqual(['/opt/cni/bin', '/usr/lib/cni', '/usr/libexec/cni']);
    expect(
      await crioWith(
        '[crio.network]\nplugin_dirs = ["/opt/cni/bin/"]\nplugin_dir = "/opt/cni/bin"\n',
      ),
    ).toEqual(['/opt/cni/bin']);
  });

  it('keeps plugin_dirs alone when there is no plugin_dir', async () => {
    expect(await crioWith('[crio.network]\nplugin_dirs = ["/usr/libexec/cni/"]\n')).toEqual([
      '/usr/libexec/cni',
    ]);
    expect(await crioWith('[crio.network]\n')).toEqual(['/opt/cni/bin']);
  });
});
