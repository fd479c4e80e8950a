import TOML from '@iarna/toml';
import { describe, expect, it } from 'vitest';
import { removeArrayElement, removeTomlKey, setTomlValue } from './edit';
import { parseToml } from './parse';
import { lineHunk, sample } from './testing.testutil';
import type { TomlEditResult } from './types';

// Edits on the real samples, checked by diff: only the intended lines may change.

function edited(r: TomlEditResult): string {
  if (!r.ok) throw new Error(`edit refused: ${r.reason}`);
  return r.text;
}

const CRI_V2 = 'io.containerd.grpc.v1.cri';
const RUNTIME_V3 = 'io.containerd.cri.v1.runtime';

describe('edits on containerd.io default config (disabled_plugins = ["cri"])', () => {
  const text = sample('containerd.io-default-config.toml');

  it('removing "cri" changes exactly one line', () => {
    const out = edited(removeArrayElement(text, ['disabled_plugins'], 'cri'));
    expect(lineHunk(text, out)).toEqual({
      line: 16,
      removed: ['disabled_plugins = ["cri"]'],
      added: ['disabled_plugins = []'],
    });
    expect(TOML.parse(out)['disabled_plugins']).toEqual([]);
  });

  it('refuses to remove an element that is not there', () => {
    expect(removeArrayElement(text, ['disabled_plugins'], 'aufs')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not in/),
    });
    expect(removeArrayElement(text, ['plugins', 'x'], 'cri')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not set/),
    });
  });

  it('setting cni bin_dir appends the missing table at the end', () => {
    const out = edited(setTomlValue(text, ['plugins', 'cri', 'cni', 'bin_dir'], '/opt/cni/bin'));
    expect(out.startsWith(text)).toBe(true);
    expect(out.slice(text.length)).toBe('\n[plugins.cri.cni]\nbin_dir = "/opt/cni/bin"\n');
    expect(parseToml(out)).toMatchObject({
      ok: true,
      value: { plugins: { cri: { cni: { bin_dir: '/opt/cni/bin' } } } },
    });
  });

  it('adds a root key after the last root assignment', () => {
    const out = edited(setTomlValue(text, ['version'], 2));
    expect(lineHunk(text, out)).toEqual({ line: 17, removed: [], added: ['version = 2'] });
  });
});

describe('edits on the containerd 1.x version 2 sample', () => {
  const text = sample('containerd-1.x-cri-config-v2.toml');
  const runc = ['plugins', CRI_V2, 'containerd', 'runtimes', 'runc'];

  it('setting SystemdCgroup = true changes exactly one line', () => {
    const out = edited(setTomlValue(text, [...runc, 'options', 'SystemdCgroup'], true));
    expect(lineHunk(text, out)).toEqual({
      line: 63,
      removed: ['        SystemdCgroup = false'],
      added: ['        SystemdCgroup = true'],
    });
  });

  it('adds a missing key after the table’s last assignment with the siblings’ indentation', () => {
    const out = edited(
      setTomlValue(text, ['plugins', CRI_V2, 'cni', 'bin_dirs'], ['/opt/cni/bin', '/usr/lib/cni']),
    );
    const hunk = lineHunk(text, out);
    expect(hunk.removed).toEqual([]);
    expect(hunk.added).toEqual(['    bin_dirs = ["/opt/cni/bin", "/usr/lib/cni"]']);
    expect(text.split('\n')[hunk.line - 2]).toBe('    use_internal_loopback = false');
  });

  it('adds a key to a header-only table one level deeper than the header', () => {
    const out = edited(
      setTomlValue(
        text,
        ['plugins', CRI_V2, 'containerd', 'default_runtime', 'runtime_type'],
        'io.containerd.runc.v2',
      ),
    );
    const hunk = lineHunk(text, out);
    expect(hunk).toMatchObject({
      removed: [],
      added: ['      runtime_type = "io.containerd.runc.v2"'],
    });
    expect(text.split('\n')[hunk.line - 2]).toBe(
      '    [plugins."io.containerd.grpc.v1.cri".containerd.default_runtime]',
    );
  });

  it('appends a new table with "double" quoted segments like the existing headers', () => {
    const out = edited(
      setTomlValue(
        text,
        ['plugins', CRI_V2, 'containerd', 'runtimes', 'kata', 'runtime_type'],
        'io.containerd.kata.v2',
      ),
    );
    expect(out.slice(text.length)).toBe(
      '\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata]\nruntime_type = "io.containerd.kata.v2"\n',
    );
  });

  it('removes one element of a single-line array', () => {
    const key = ['plugins', CRI_V2, 'cdi_spec_dirs'];
    expect(lineHunk(text, edited(removeArrayElement(text, key, '/var/run/cdi'))).added).toEqual([
      '  cdi_spec_dirs = ["/etc/cdi"]',
    ]);
    expect(lineHunk(text, edited(removeArrayElement(text, key, '/etc/cdi'))).added).toEqual([
      '  cdi_spec_dirs = ["/var/run/cdi"]',
    ]);
  });

  it('removeTomlKey removes exactly the assignment line', () => {
    const out = edited(removeTomlKey(text, ['plugins', CRI_V2, 'cni', 'conf_dir']));
    expect(lineHunk(text, out)).toEqual({
      line: 68,
      removed: ['    conf_dir = "/etc/cni/net.d"'],
      added: [],
    });
  });

  it('replaces a value in place, keeping the rest of the line', () => {
    const out = edited(
      setTomlValue(text, ['plugins', CRI_V2, 'sandbox_image'], 'registry.k8s.io/pause:3.10'),
    );
    expect(lineHunk(text, out)).toMatchObject({
      removed: ['  sandbox_image = "registry.k8s.io/pause:3.10.2"'],
      added: ['  sandbox_image = "registry.k8s.io/pause:3.10"'],
    });
  });
});

describe('edits on the containerd 2.x version 3 sample (single quotes)', () => {
  const text = sample('containerd-2.x-cri-config-v3.toml');
  const cni = ['plugins', RUNTIME_V3, 'cni'];

  it('keeps single quotes when replacing a string', () => {
    const out = edited(setTomlValue(text, [...cni, 'conf_dir'], '/etc/cni/custom'));
    expect(lineHunk(text, out)).toMatchObject({
      removed: ["      conf_dir = '/etc/cni/net.d'"],
      added: ["      conf_dir = '/etc/cni/custom'"],
    });
  });

  it('keeps single quotes for arrays and for keys it adds', () => {
    const bin = edited(
      setTomlValue(text, [...cni, 'bin_dirs'], ['/opt/cni/bin', '/usr/libexec/cni']),
    );
    expect(lineHunk(text, bin).added).toEqual([
      "      bin_dirs = ['/opt/cni/bin', '/usr/libexec/cni']",
    ]);
    const empty = edited(
      setTomlValue(
        text,
        ['plugins', RUNTIME_V3, 'containerd', 'runtimes', 'runc', 'pod_annotations'],
        ['a'],
      ),
    );
    expect(lineHunk(text, empty).added).toEqual(["          pod_annotations = ['a']"]);
    const added = edited(
      setTomlValue(
        text,
        ['plugins', RUNTIME_V3, 'containerd', 'runtimes', 'runc', 'options', 'SystemdCgroup'],
        true,
      ),
    );
    expect(lineHunk(text, added)).toMatchObject({
      removed: [],
      added: ['            SystemdCgroup = true'],
    });
  });

  it('falls back to double quotes when a literal string cannot hold the value', () => {
    const out = edited(setTomlValue(text, [...cni, 'conf_dir'], "it's"));
    expect(lineHunk(text, out).added).toEqual(['      conf_dir = "it\'s"']);
  });

  it("appends new tables with 'single' quoted segments", () => {
    const withoutCni = text.replace(
      / {4}\[plugins\.'io\.containerd\.cri\.v1\.runtime'\.cni\][^[]*/,
      '',
    );
    expect(parseToml(withoutCni).ok).toBe(true);
    const out = edited(setTomlValue(withoutCni, [...cni, 'bin_dir'], '/opt/cni/bin'));
    expect(out.slice(withoutCni.length)).toBe(
      "\n[plugins.'io.containerd.cri.v1.runtime'.cni]\nbin_dir = '/opt/cni/bin'\n",
    );
  });

  it('refuses to set a table as if it were a value', () => {
    expect(
      setTomlValue(text, ['plugins', RUNTIME_V3, 'containerd', 'runtimes'], 'x'),
    ).toMatchObject({ ok: false, reason: expect.stringMatching(/is a table/) });
  });
});

describe('edits on CRI-O samples', () => {
  it('removes an element of a multi-line array by dropping its line only', () => {
    const text = sample('crio-network-section.conf');
    const out = edited(
      removeArrayElement(text, ['crio', 'network', 'plugin_dirs'], '/usr/libexec/cni/'),
    );
    expect(lineHunk(text, out)).toEqual({
      line: 16,
      removed: ['\t"/usr/libexec/cni/",'],
      added: [],
    });
    const first = edited(
      removeArrayElement(text, ['crio', 'network', 'plugin_dirs'], '/opt/cni/bin/'),
    );
    expect(lineHunk(text, first)).toEqual({ line: 15, removed: ['\t"/opt/cni/bin/",'], added: [] });
  });

  it('replaces a multi-line array as a whole', () => {
    const text = sample('crio-network-section.conf');
    const out = edited(setTomlValue(text, ['crio', 'network', 'plugin_dirs'], ['/opt/cni/bin']));
    expect(lineHunk(text, out)).toMatchObject({
      removed: ['plugin_dirs = [', '\t"/opt/cni/bin/",', '\t"/usr/libexec/cni/",', ']'],
      added: ['plugin_dirs = ["/opt/cni/bin"]'],
    });
  });

  it('appends [crio.network] to a drop-in that lacks it', () => {
    const text = sample('crio.conf.d-10-crio.conf');
    const out = edited(setTomlValue(text, ['crio', 'network', 'network_dir'], '/etc/cni/net.d/'));
    expect(out.slice(text.length)).toBe('\n[crio.network]\nnetwork_dir = "/etc/cni/net.d/"\n');
  });

  it('emptying the last element of a multi-line array leaves the brackets', () => {
    const text = sample('crio.conf.d-10-crio.conf');
    const out = edited(
      removeArrayElement(
        text,
        ['crio', 'runtime', 'runtimes', 'crun', 'allowed_annotations'],
        'io.containers.trace-syscall',
      ),
    );
    expect(lineHunk(text, out)).toEqual({
      line: 14,
      removed: ['    "io.containers.trace-syscall",'],
      added: [],
    });
    expect(TOML.parse(out)).toMatchObject({
      crio: { runtime: { runtimes: { crun: { allowed_annotations: [] } } } },
    });
  });
});

describe('CRLF files stay CRLF', () => {
  const text = sample('containerd-1.x-cri-config-v2.toml').replace(/\n/g, '\r\n');
  const noBareLf = (s: string) => !/(^|[^\r])\n/.test(s);

  it.each([
    [
      'replace',
      (t: string) =>
        setTomlValue(
          t,
          ['plugins', CRI_V2, 'containerd', 'runtimes', 'runc', 'options', 'SystemdCgroup'],
          true,
        ),
    ],
    [
      'insert',
      (t: string) => setTomlValue(t, ['plugins', CRI_V2, 'cni', 'bin_dirs'], ['/opt/cni/bin']),
    ],
    [
      'append table',
      (t: string) =>
        setTomlValue(t, ['plugins', CRI_V2, 'containerd', 'runtimes', 'kata', 'runtime_type'], 'x'),
    ],
    ['remove key', (t: string) => removeTomlKey(t, ['plugins', CRI_V2, 'cni', 'conf_dir'])],
    [
      'remove element',
      (t: string) => removeArrayElement(t, ['plugins', CRI_V2, 'cdi_spec_dirs'], '/etc/cdi'),
    ],
  ])('%s', (_name, edit) => {
    const out = edited(edit(text));
    expect(noBareLf(out)).toBe(true);
    const hunk = lineHunk(text, out);
    expect(hunk.removed.length + hunk.added.length).toBeLessThanOrEqual(3);
  });

  it('crio multi-line array element removal keeps CRLF', () => {
    const crio = sample('crio-network-section.conf').replace(/\n/g, '\r\n');
    const out = edited(
      removeArrayElement(crio, ['crio', 'network', 'plugin_dirs'], '/opt/cni/bin/'),
    );
    expect(noBareLf(out)).toBe(true);
    expect(lineHunk(crio, out).removed).toEqual(['\t"/opt/cni/bin/",\r']);
  });
});
