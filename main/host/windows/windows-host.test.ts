import { describe, expect, it } from 'vitest';
import { scanHost } from '../../engine/scan';
import { loadFixture } from '../../probes/windows/testing/sample-fixtures';
import type { CriEntry } from '../../../shared/model/cri';
import type { RunOptions, RunResult } from './powershell-session';
import { FakeWindowsNode, type FakeHns, type FakeNodeSpec } from './testing/fake-node';
import { WindowsHost } from './windows-host';
import { defaultScanRequest } from './scan-paths';

/** HNS lists as the real samples recorded them (fixtures/windows/samples). */
function sampleHns(...files: string[]): FakeHns {
  const out: FakeHns = { networks: [], endpoints: [], namespaces: [], policyLists: [] };
  for (const f of files) {
    const doc = loadFixture(f) as { hns: FakeHns };
    for (const k of ['networks', 'endpoints', 'namespaces', 'policyLists'] as const)
      out[k].push(...doc.hns[k]);
  }
  return out;
}

const NAT_CONF = JSON.stringify(
  {
    cniVersion: '0.2.0',
    name: 'nat',
    type: 'nat',
    master: 'Ethernet',
    ipam: { subnet: '172.29.144.0/20', routes: [{ GW: '172.29.144.1' }] },
    capabilities: { portMappings: true, dns: true },
  },
  null,
  4,
);

function spec(over: Partial<FakeNodeSpec> = {}): FakeNodeSpec {
  return {
    pipes: ['containerd-containerd'],
    services: [
      { name: 'containerd', state: 'Running' },
      { name: 'kubelet', state: 'Running' },
    ],
    processes: [
      {
        name: 'containerd.exe',
        pid: 2212,
        commandLine: '"C:\\Program Files\\containerd\\containerd.exe" --run-service',
      },
      {
        name: 'kubelet.exe',
        pid: 3188,
        commandLine:
          'C:\\k\\kubelet.exe --container-runtime-endpoint=npipe:////./pipe/containerd-containerd',
      },
    ],
    versions: {
      kubelet: 'Kubernetes v1.27.4',
      containerd: 'containerd github.com/containerd/containerd v1.7.2 x',
    },
    hns: sampleHns(
      '04-get-hnsnetwork-containerd-nat-calico-node.txt',
      '11-get-hnsendpoint-nat-created-not-attached.txt',
      '15-get-hnsendpoint-remote-l2bridge-acs-engine.txt',
    ),
    files: {
      'C:\\Program Files\\containerd\\config.toml':
        'version = 2\n[plugins."io.containerd.grpc.v1.cri".cni]\n  bin_dir = "c:/opt/cni/bin"\n  conf_dir = "c:/etc/cni/net.d"\n',
      'C:\\etc\\cni\\net.d\\0-containerd-nat.json': NAT_CONF,
      'C:\\etc\\cni\\net.d\\README.txt': 'not a config',
      'C:\\k\\kubelet.err.log':
        'I1202 starting\nE1202 Error while dialing open \\\\.\\pipe\\cnisock: The system cannot find the file specified.\n',
    },
    dirs: { 'C:\\opt\\cni\\bin': ['nat.exe', 'host-local.exe'] },
    ...over,
  };
}

const noCri = async (endpoint: string): Promise<CriEntry> => ({
  endpoint,
  api: null,
  error: { code: 14, message: 'not in this test' },
});

describe('WindowsHost: one collection per scan', () => {
  it('answers a whole default scan from ONE call (HNS, pipes, services, configs, bin dirs, log tails)', async () => {
    const node = new FakeWindowsNode(spec());
    const host = new WindowsHost(node, { probeCri: noCri });
    const scan = await scanHost(host);
    expect(node.calls).toHaveLength(1);
    expect(host.roundTrips).toBe(1);
    const input = node.collections[0];
    expect(input?.sections).toBeUndefined();
    expect(input?.readDirs).toContain('C:\\etc\\cni\\net.d');
    expect(input?.tails).toContain('C:\\k\\kubelet.err.log');
    expect(input?.readDirSuffixes).toEqual([
      '.conf',
      '.conflist',
      '.json',
      '.disabled',
      '.mk_disabled',
      '.cilium_bak',
    ]);

    const s = scan.snapshot;
    expect(s.node).toMatchObject({ os: 'windows', source: 'live' });
    expect(s.windows?.hns.known && s.windows.hns.value.endpoints.map((e) => e.id)).toEqual([
      '5e6298c2-4638-494e-be6b-ff6fef942c06',
      '20c707a8-ac6d-4acb-aef8-8707781a4396',
    ]);
    const netd = s.confDirs.find((d) => d.path.toLowerCase() === 'c:/etc/cni/net.d');
    expect(
      netd?.entries.known && netd.entries.value.map((e) => [e.name, e.loadable, e.parse?.known]),
    ).toEqual([
      ['0-containerd-nat.json', true, true],
      ['README.txt', false, undefined],
    ]);
    expect(s.logs.matches.map((m) => [m.path, m.line])).toContainEqual([
      'C:\\k\\kubelet.err.log',
      2,
    ]);
    // The remote endpoint (sample 15) is never stale; the created-not-attached one (sample 11) is.
    const stale = scan.report.findings.find((f) => f.rule === 'hns.endpoint.stale');
    expect(stale?.evidence.map((e) => (e.kind === 'hns' ? e.id : ''))).toEqual([
      '5e6298c2-4638-494e-be6b-ff6fef942c06',
    ]);
  });

  it('fetches a conf_dir and bin_dir named in config.toml in ONE extra batched call that reads files only', async () => {
    const node = new FakeWindowsNode(
      spec({
        files: {
          'C:\\Program Files\\containerd\\config.toml':
            'version = 2\n[plugins."io.containerd.grpc.v1.cri".cni]\n  bin_dir = "D:/cni/bin"\n  conf_dir = "D:/cni/conf"\n',
          'D:\\cni\\conf\\10-antrea.conflist':
            '{"cniVersion":"0.3.0","name":"antrea","plugins":[{"type":"antrea","ipam":{"type":"host-local"}}]}',
          'D:\\cni\\conf\\10-antrea.conflist.disabled':
            '{"cniVersion":"0.3.0","name":"antrea","plugins":[{"type":"antrea"}]}',
        },
        dirs: { 'D:\\cni\\bin': ['antrea.exe', 'host-local.exe'] },
      }),
    );
    const host = new WindowsHost(node, { probeCri: noCri });
    const scan = await scanHost(host);
    expect(node.calls).toHaveLength(2);
    const follow = node.collections[1];
    expect(follow?.sections).toEqual(['files']);
    // Both dirs ride in the same call; the conf dir's configs come with its listing, and the bin
    // dir's binaries are typed, never read (their names do not end in a config suffix).
    expect(follow?.readDirs).toEqual(['D:\\cni\\conf', 'D:\\cni\\bin']);
    expect(follow?.paths).toEqual([]);
    // HNS objects come in the first call only.
    const answers = await Promise.all(node.calls.map((c) => node.run(c.script, c.opts)));
    expect(answers.map((a) => a.ok && 'hns' in (JSON.parse(a.stdout) as object))).toEqual([
      true,
      false,
    ]);

    const conf = scan.snapshot.confDirs.find((d) => d.path === 'D:/cni/conf');
    expect(
      conf?.entries.known &&
        conf.entries.value.map((e) => [e.name, e.parse?.known && e.parse.value.ok]),
    ).toEqual([
      ['10-antrea.conflist', true],
      ['10-antrea.conflist.disabled', true],
    ]);
    const bin = scan.snapshot.binDirs.find((d) => d.path === 'D:/cni/bin');
    expect(bin?.entries).toEqual({ known: true, value: ['antrea.exe', 'host-local.exe'] });
    expect(scan.report.checks.find((c) => c.rule === 'cni.plugin.missing')?.status).toBe('pass');
  });

  it('coalesces misses raised in the same turn, and never asks for a path twice', async () => {
    const node = new FakeWindowsNode(spec({ files: { 'E:\\a.conf': '{}', 'E:\\b.conf': '{}' } }));
    const host = new WindowsHost(node);
    const [a, b, c] = await Promise.all([
      host.readFile('E:\\a.conf'),
      host.readFile('e:/b.conf'),
      host.stat('E:\\nothing'),
    ]);
    expect([a.ok, b.ok, c]).toEqual([
      true,
      true,
      { ok: false, error: 'ENOENT', message: 'E:\\nothing does not exist' },
    ]);
    expect(node.calls).toHaveLength(2);
    expect(node.collections[1]?.paths.sort()).toEqual(['E:\\a.conf', 'E:\\b.conf', 'E:\\nothing']);
    await host.stat('E:\\nothing');
    await host.readFile('E:\\a.conf');
    expect(node.calls).toHaveLength(2);
  });

  it('never sends pipes, shares or relative paths to the shell', async () => {
    const node = new FakeWindowsNode(spec());
    const host = new WindowsHost(node);
    for (const p of [
      '\\\\.\\pipe\\containerd-containerd',
      '\\\\server\\share\\x',
      'relative\\x',
      '/etc/cni/net.d',
    ]) {
      expect(await host.stat(p)).toMatchObject({ ok: false, error: 'OTHER' });
    }
    expect(node.calls).toHaveLength(1);
  });

  it('a failed follow-up makes its paths unknown, not missing', async () => {
    const node = new FakeWindowsNode(
      spec({
        files: {
          'C:\\Program Files\\containerd\\config.toml':
            'version = 2\n[plugins."io.containerd.grpc.v1.cri".cni]\n  conf_dir = "D:/cni/conf"\n',
        },
      }),
    );
    const real = node.run.bind(node);
    node.run = async (script: string, opts: RunOptions): Promise<RunResult> =>
      node.calls.length === 0
        ? real(script, opts)
        : { ok: false, kind: 'timeout', message: 'no answer within 60000 ms' };
    const scan = await scanHost(new WindowsHost(node, { probeCri: noCri }));
    const conf = scan.snapshot.confDirs.find((d) => d.path === 'D:/cni/conf');
    expect(conf?.missing).toBe(false);
    expect(conf?.entries.known).toBe(false);
    expect(scan.report.checks.find((c) => c.rule === 'cni.conf.none')?.status).toBe('unknown');
  });

  it('fails the scan with the reason when the first collection fails', async () => {
    const host = new WindowsHost({
      run: async () => ({ ok: false, kind: 'exit', message: 'spawn powershell.exe ENOENT' }),
    });
    await expect(scanHost(host)).rejects.toThrow(
      /reading the Windows node failed \(exit\): spawn powershell.exe ENOENT/,
    );
  });

  it('asks CRI over the npipe endpoints the probes found, with sandboxes', async () => {
    const asked: { endpoint: string; listSandboxes: boolean | undefined }[] = [];
    const host = new WindowsHost(new FakeWindowsNode(spec()), {
      probeCri: async (endpoint, o) => {
        asked.push({ endpoint, listSandboxes: o.listSandboxes });
        return { endpoint, api: 'runtime.v1', error: null, sandboxes: [] };
      },
    });
    const scan = await scanHost(host);
    expect(asked).toEqual([
      { endpoint: 'npipe:////./pipe/containerd-containerd', listSandboxes: true },
    ]);
    expect(scan.snapshot.cri?.[0]?.api).toBe('runtime.v1');
  });

  it('asks for every path a default scan reads (scan-paths.ts follows the probes)', () => {
    const r = defaultScanRequest();
    expect(r.paths).toContain('C:\\Program Files\\containerd\\config.toml');
    expect(r.paths).toContain('C:\\var\\lib\\kubelet\\config.yaml');
    expect(r.readDirs).toEqual([
      'C:\\etc\\cni\\net.d',
      'C:\\Program Files\\containerd\\cni\\conf',
      'C:\\k\\cni\\config',
    ]);
    expect(r.dirs).toEqual([
      'C:\\opt\\cni\\bin',
      'C:\\Program Files\\containerd\\cni\\bin',
      'C:\\k\\cni',
    ]);
  });
});
