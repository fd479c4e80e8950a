import { describe, expect, it } from 'vitest';
import { scanMemoryNode } from '../host/memory-node.testutil';

describe('evaluate: log evidence', () => {
  it('quotes a line once even when two signatures of the same rule match it', async () => {
    const { report, snapshot } = await scanMemoryNode({
      running: ['crio'],
      files: {
        '/etc/crio/crio.conf': '[crio.network]\nplugin_dirs = ["/usr/libexec/cni/"]\n',
        '/etc/cni/net.d/10-flannel.conflist': JSON.stringify({
          name: 'cbr0',
          cniVersion: '0.3.1',
          plugins: [{ type: 'flannel' }],
        }),
        // Matches linux.cni.plugin-not-found and linux.crio.plugin-dirs-mismatch (both cni.plugin.missing).
        '/var/log/crio.log':
          'level=warning msg="Error validating CNI config file /etc/cni/net.d/10-flannel.conflist: [failed to find plugin \\"flannel\\" in path [/usr/libexec/cni/]]"\n',
      },
      paths: {
        '/usr/libexec/cni': { type: 'dir', entries: ['bridge'] },
        '/opt/cni/bin': { type: 'dir', entries: ['flannel'] },
      },
    });
    expect(new Set(snapshot.logs.matches.map((m) => m.signatureId))).toEqual(
      new Set(['linux.cni.plugin-not-found', 'linux.crio.plugin-dirs-mismatch']),
    );
    const f = report.findings.find((x) => x.rule === 'cni.plugin.missing');
    expect(f?.evidence.filter((e) => e.kind === 'log')).toHaveLength(1);
  });
});
