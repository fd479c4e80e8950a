// Could not look is never a cause (issue 22, point 1): a non-root scan gets EACCES on a healthy
// containerd's root-only socket; that is an unknown check and a banner, never "the runtime died
// and left a stale socket" with a restart offered.
import { describe, expect, it } from 'vitest';
import { scanMemoryNode, type MemoryNodeSpec } from '../../host/memory-node.testutil';

const SOCK = '/run/containerd/containerd.sock';

function node(message: string): MemoryNodeSpec {
  return {
    running: ['containerd'],
    processes: [
      {
        name: 'kubelet',
        args: ['/usr/bin/kubelet', `--container-runtime-endpoint=unix://${SOCK}`],
      },
    ],
    files: {
      '/etc/containerd/config.toml': 'version = 2\n',
      '/etc/cni/net.d/10-flannel.conflist':
        '{"cniVersion":"1.0.0","name":"cbr0","plugins":[{"type":"flannel"}]}',
      '/opt/cni/bin/flannel': 'x',
    },
    paths: { [SOCK]: { type: 'socket' } },
    cri: [{ endpoint: `unix://${SOCK}`, api: null, error: { code: 14, message } }],
  };
}

describe('cri.endpoint.unreachable', () => {
  it('is unknown, not a stale socket, when the scan may not open the socket (EACCES)', async () => {
    const scan = await scanMemoryNode(
      node(`No connection established. Last error: connect EACCES ${SOCK}`),
    );
    expect(scan.findings('cri.endpoint.unreachable')).toEqual([]);
    expect(scan.check('cri.endpoint.unreachable')).toMatchObject({
      status: 'unknown',
      reason: expect.stringMatching(
        /permission denied on unix:\/\/\/run\/containerd.*not running as root/,
      ),
    });
    // No repair anywhere rests on it, and nothing is named the most likely cause for it.
    expect(scan.report.findings.flatMap((f) => f.repairs.map((r) => r.id))).not.toContainEqual(
      expect.stringContaining('restart-service'),
    );
    expect(scan.report.access).toMatchObject({
      needs: 'root',
      denied: expect.arrayContaining([
        expect.objectContaining({ rule: 'cri.endpoint.unreachable' }),
        expect.objectContaining({ rule: 'cri.network.not-ready' }),
      ]),
    });
  });

  it('still reports a refused socket (ECONNREFUSED) with the restart', async () => {
    const scan = await scanMemoryNode(
      node(`No connection established. Last error: connect ECONNREFUSED ${SOCK}`),
    );
    const [f] = scan.findings('cri.endpoint.unreachable');
    expect(f?.title).toMatch(/refused/);
    expect(f?.repairs.map((r) => r.id)).toContainEqual(expect.stringContaining('restart-service'));
    expect(scan.report.access).toBeUndefined();
  });
});
