import { describe, expect, it } from 'vitest';
import { scanMemoryNode } from '../../host/memory-node.testutil';

/** containerd and cri-dockerd sockets present, crictl on containerd, the kubelet dialling `kubeletEp`. */
async function scan(kubeletEp: string) {
  const node = await scanMemoryNode({
    running: ['containerd'],
    files: {
      '/etc/containerd/config.toml': 'version = 2\n',
      '/etc/crictl.yaml': 'runtime-endpoint: unix:///run/containerd/containerd.sock\n',
    },
    processes: [
      { name: 'kubelet', args: ['/usr/bin/kubelet', `--container-runtime-endpoint=${kubeletEp}`] },
    ],
    paths: {
      '/run/containerd/containerd.sock': { type: 'socket' },
      '/var/run/cri-dockerd.sock': { type: 'socket' },
      '/var/run/dockershim.sock': { type: 'missing' },
      '/var/run/crio/crio.sock': { type: 'missing' },
    },
  });
  const repairs = (rule: string): string[] =>
    node.findings(rule).flatMap((f) => f.repairs.map((r) => r.title));
  return {
    crictl: repairs('cri.crictl.mismatch'),
    multiple: repairs('cri.socket.multiple'),
    missing: node.findings('cri.endpoint.missing').length > 0,
  };
}

describe('repairs that write crictl.yaml', () => {
  it("point crictl at the kubelet's endpoint when it exists", async () => {
    expect(await scan('unix:///var/run/cri-dockerd.sock')).toEqual({
      crictl: ['Point crictl at unix:///var/run/cri-dockerd.sock'],
      multiple: ['Write crictl.yaml pointing at unix:///var/run/cri-dockerd.sock'],
      missing: false,
    });
  });

  // A kubelet left on dockershim after the upgrade: crictl must not follow it to a dead socket.
  it('are not offered when the kubelet dials a socket that does not exist', async () => {
    expect(await scan('unix:///var/run/dockershim.sock')).toEqual({
      crictl: [],
      multiple: [],
      missing: true,
    });
  });
});
