/**
 * kubelet.flags.removed judges the command line the kubelet runs with, and when it is not running,
 * the one that starts it: on Windows its service's nssm AppParameters or ImagePath, or the start
 * script either names (docs/knowledge/windows-node.md#how-the-kubelet-is-started). Without any,
 * a kubelet that is not running is `unknown`, never `pass`.
 */
import { describe, expect, it } from 'vitest';
import { scanMemoryNode, type MemoryNodeSpec } from '../../host/memory-node.testutil';

const PS = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
const RULE = 'kubelet.flags.removed';
const SCRIPT = [
  '$FileContent = Get-Content -Path "/var/lib/kubelet/kubeadm-flags.env"',
  '$cmd = "C:\\k\\kubelet.exe $global:KubeletArgs --config=/var/lib/kubelet/config.yaml --network-plugin=cni"',
  'Invoke-Expression $cmd',
].join('\r\n');

function windowsNode(over: Partial<MemoryNodeSpec> = {}): MemoryNodeSpec {
  return {
    os: 'windows',
    versions: { kubelet: 'v1.24.17' },
    processes: [],
    services: [
      {
        name: 'kubelet',
        state: 'stopped',
        launch: {
          imagePath: 'C:\\k\\nssm.exe',
          nssm: { application: PS, parameters: '-NoProfile C:\\k\\StartKubelet.ps1' },
        },
      },
    ],
    files: { 'C:\\k\\StartKubelet.ps1': SCRIPT },
    ...over,
  };
}

describe('kubelet.flags.removed on a Windows kubelet that is not running', () => {
  it('fails from the script nssm runs, quoting its line, and offers to edit it', async () => {
    const scan = await scanMemoryNode(windowsNode());
    const [f] = scan.findings(RULE);
    expect(f?.title).toBe('kubelet v1.24.17 is started with removed flag(s): --network-plugin');
    expect(f?.evidence[0]).toMatchObject({
      kind: 'file',
      path: 'C:\\k\\StartKubelet.ps1',
      lines: expect.arrayContaining([expect.objectContaining({ line: 2, highlight: true })]),
    });
    expect(f?.repairs.map((r) => r.id)).toEqual([`${RULE}:kubelet-remove-flags`]);
    expect(scan.snapshot.kubelet.known && scan.snapshot.kubelet.value?.launch).toMatchObject({
      source: 'script',
      where: 'C:\\k\\StartKubelet.ps1',
    });
  });

  it('fails from nssm AppParameters, quoting the registry value, with guidance instead of a repair', async () => {
    const scan = await scanMemoryNode(
      windowsNode({
        files: {},
        services: [
          {
            name: 'kubelet',
            state: 'failed',
            launch: {
              nssm: {
                application: 'C:\\k\\kubelet.exe',
                parameters: '--config=C:\\var\\lib\\kubelet\\config.yaml --cni-bin-dir=C:\\k\\cni',
              },
            },
          },
        ],
      }),
    );
    const [f] = scan.findings(RULE);
    expect(f?.evidence[0]).toEqual({
      kind: 'registry',
      key: 'HKLM\\SYSTEM\\CurrentControlSet\\Services\\kubelet\\Parameters',
      value: 'AppParameters',
      data: '--config=C:\\var\\lib\\kubelet\\config.yaml --cni-bin-dir=C:\\k\\cni',
      note: "the kubelet service's command line (--cni-bin-dir)",
    });
    expect(f?.repairs).toEqual([]);
    expect(f?.guidance).toMatch(/nssm set kubelet AppParameters/);
  });

  it('fails from a plain service ImagePath that runs kubelet.exe', async () => {
    const scan = await scanMemoryNode(
      windowsNode({
        files: {},
        services: [
          {
            name: 'kubelet',
            state: 'stopped',
            launch: {
              imagePath: '"C:\\k\\kubelet.exe" --docker-endpoint=npipe:////./pipe/docker_engine',
            },
          },
        ],
      }),
    );
    expect(scan.findings(RULE)[0]?.evidence[0]).toMatchObject({
      kind: 'registry',
      value: 'ImagePath',
    });
  });

  it('passes when the command line is found and carries no removed flag', async () => {
    const scan = await scanMemoryNode(
      windowsNode({
        files: { 'C:\\k\\StartKubelet.ps1': SCRIPT.replace(' --network-plugin=cni', '') },
      }),
    );
    expect(scan.status(RULE)).toBe('pass');
  });

  it('is unknown, naming what it looked at, when no command line is found (a bundle from before services recorded launch)', async () => {
    const scan = await scanMemoryNode(
      windowsNode({ files: {}, services: [{ name: 'kubelet', state: 'stopped' }] }),
    );
    expect(scan.check(RULE)).toEqual({
      rule: RULE,
      status: 'unknown',
      reason:
        "the kubelet is not running and the command line that starts it was not found (the kubelet service's registry key was not recorded; C:\\k\\StartKubelet.ps1 (the default start script) could not be read: C:\\k\\StartKubelet.ps1 was not recorded in the bundle)",
    });
  });

  it('is unknown when the service runs nssm.exe but nssm has no Parameters, and says so', async () => {
    const scan = await scanMemoryNode(
      windowsNode({
        files: {},
        services: [{ name: 'kubelet', state: 'stopped', launch: { imagePath: 'C:\\k\\nssm.exe' } }],
      }),
    );
    expect(scan.check(RULE).reason).toMatch(
      /its ImagePath runs C:\\k\\nssm\.exe, but it has no nssm Parameters/,
    );
  });

  it("quotes the kubelet's own refusal in the unknown reason", async () => {
    const scan = await scanMemoryNode(
      windowsNode({
        files: {
          'C:\\k\\kubelet.err.log':
            'Error: failed to parse kubelet flag: unknown flag: --network-plugin\n',
        },
        services: [
          {
            name: 'kubelet',
            state: 'stopped',
            launch: { nssmError: 'Requested registry access is not allowed.' },
          },
        ],
      }),
    );
    expect(scan.check(RULE).reason).toMatch(
      /Parameters could not be read: Requested registry access is not allowed\..*C:\\k\\kubelet\.err\.log line 1 says: Error: failed to parse kubelet flag: unknown flag: --network-plugin$/,
    );
    expect(scan.status('log.kubelet.unknown-flag')).toBe('fail');
  });

  it('a running kubelet is judged by its process; the script line is where the flag is set', async () => {
    const scan = await scanMemoryNode(
      windowsNode({
        processes: [
          { name: 'kubelet', pid: 3188, args: ['C:\\k\\kubelet.exe', '--network-plugin=cni'] },
        ],
      }),
    );
    const [f] = scan.findings(RULE);
    expect(f?.evidence[0]).toMatchObject({ kind: 'file', path: 'C:\\k\\StartKubelet.ps1' });
    expect(scan.snapshot.kubelet.known && scan.snapshot.kubelet.value?.launch?.source).toBe(
      'process',
    );
  });
});

describe('kubelet.flags.removed on Linux', () => {
  it('a kubelet that is not running: judged from kubeadm-flags.env, unknown without any flag file', async () => {
    const env = '/var/lib/kubelet/kubeadm-flags.env';
    const withEnv = await scanMemoryNode({
      versions: { kubelet: 'v1.29.1' },
      files: { [env]: 'KUBELET_KUBEADM_ARGS="--network-plugin=cni"\n' },
    });
    expect(withEnv.status(RULE)).toBe('fail');
    const clean = await scanMemoryNode({
      versions: { kubelet: 'v1.29.1' },
      files: { [env]: 'KUBELET_KUBEADM_ARGS="--node-ip=10.0.0.5"\n' },
    });
    expect(clean.status(RULE)).toBe('pass');
    const none = await scanMemoryNode({
      versions: { kubelet: 'v1.29.1' },
      files: { '/var/lib/kubelet/config.yaml': 'kind: KubeletConfiguration\n' },
    });
    expect(none.check(RULE)).toMatchObject({ status: 'unknown' });
  });
});
