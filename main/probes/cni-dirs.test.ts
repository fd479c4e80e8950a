import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BundleHost } from '../host/bundle-host';
import { ProbeContext } from './context';
import { probeConfDir } from './cni-dirs';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const FLANNEL = '{"name":"cbr0","cniVersion":"0.3.1","plugins":[{"type":"flannel"}]}';

async function parseOf(name: string, data: Buffer) {
  const dir = mkdtempSync(path.join(tmpdir(), 'cni-dirs-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'files/etc/cni/net.d'), { recursive: true });
  writeFileSync(path.join(dir, 'files/etc/cni/net.d', name), data);
  writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({ format: 'cni-doctor.bundle/v1', host: { os: 'linux' } }),
  );
  const d = await probeConfDir(new ProbeContext(await BundleHost.open(dir)), '/etc/cni/net.d');
  const f = d.entries.known ? d.entries.value[0] : undefined;
  return f?.parse?.known ? f.parse.value : undefined;
}

describe('probeConfDir', () => {
  it('parses a plain UTF-8 conflist', async () => {
    expect(await parseOf('10-flannel.conflist', Buffer.from(FLANNEL))).toMatchObject({
      ok: true,
      network: 'cbr0',
    });
  });

  // Go's json.Unmarshal (libcni) rejects a byte-order mark: the runtime fails on these files.
  it('reports a UTF-8 byte-order mark as the runtime does', async () => {
    const p = await parseOf(
      '10-flannel.conflist',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(FLANNEL)]),
    );
    expect(p).toMatchObject({ ok: false, line: 1, column: 1 });
    expect(p?.ok === false && p.error).toMatch(
      /^error parsing configuration list: invalid character 'ï' looking for beginning of value/,
    );
  });

  it('reports a UTF-16 file (PowerShell Out-File) as invalid', async () => {
    const p = await parseOf(
      '10-flannel.conf',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(FLANNEL, 'utf16le')]),
    );
    expect(p?.ok === false && p.error).toMatch(
      /^error parsing configuration: invalid character 'ÿ'.*UTF-16LE byte-order mark/,
    );
  });
});

describe('parse errors', () => {
  // docs/knowledge/log-signatures-linux.md#linux-4: a half-written conflist gives "unexpected end of JSON input" in containerd's log.
  it('words a truncated file as Go does, whatever token V8 expected next', async () => {
    for (const cut of [
      '{"name":"k8s-pod-network","plugins":[{"type":"calico",\n   ',
      '{"name":"x","plugins":[1,2',
      '{"name":"x",',
    ]) {
      const p = await parseOf('10-calico.conflist', Buffer.from(cut));
      expect(p?.ok === false && p.error).toBe(
        'error parsing configuration list: unexpected end of JSON input',
      );
    }
  });

  it('keeps the detail of an error in the middle of the file', async () => {
    const p = await parseOf('10-calico.conflist', Buffer.from('{"name" "x", "plugins": []}'));
    expect(p?.ok === false && p.error).toMatch(
      /^error parsing configuration list: Expected ':' after property name/,
    );
  });
});

describe('probeConfDir for a recording (olderLoaders false)', () => {
  it('reads the same files and parses as libcni v1.3 only', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cni-dirs-'));
    dirs.push(dir);
    const conf = path.join(dir, 'files/etc/cni/net.d');
    mkdirSync(path.join(conf, 'net'), { recursive: true });
    // cniVersions and a plugin folder: libcni v1.1, v1.2 and v1.3 each read this one differently.
    writeFileSync(
      path.join(conf, '10-net.conflist'),
      '{"name":"net","cniVersion":"0.4.0","cniVersions":["1.0.0"],"plugins":[{"type":"bridge"}]}',
    );
    writeFileSync(path.join(conf, 'net/20-extra.conf'), '{"type":"portmap"}');
    writeFileSync(
      path.join(dir, 'manifest.json'),
      JSON.stringify({ format: 'cni-doctor.bundle/v1', host: { os: 'linux' } }),
    );
    const asked = async (olderLoaders: boolean) => {
      const host = await BundleHost.open(dir);
      const reads: string[] = [];
      const read = host.readFile.bind(host);
      host.readFile = (p, o) => (reads.push(p), read(p, o));
      const d = await probeConfDir(new ProbeContext(host, olderLoaders), '/etc/cni/net.d');
      return { reads, entries: d.entries.known ? d.entries.value : [] };
    };
    const all = await asked(true);
    const one = await asked(false);
    expect(one.reads).toEqual(all.reads);
    expect(one.reads).toContain('/etc/cni/net.d/net/20-extra.conf');
    expect(all.entries[0]?.parseByLibcni).toBeDefined();
    expect(one.entries[0]?.parseByLibcni).toBeUndefined();
    expect(one.entries.map((e) => e.parse)).toEqual(all.entries.map((e) => e.parse));
  });
});
