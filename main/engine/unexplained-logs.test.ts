// Matched log lines that no finding quotes reach the report (issue 22, point 4): the Overview
// lists them, so an error string a signature recognised is never only in a log viewer.
import { describe, expect, it } from 'vitest';
import { scanMemoryNode } from '../host/memory-node.testutil';

const OLD =
  'E1204 09:12:01 cri.go:1] failed to load cni during init: cni config load failed: no network config found in /etc/cni/net.d: cni plugin not initialized: failed to load cni config';

describe('report.unexplainedLogLines', () => {
  it('lists a matched line whose rule passes now (an old error), with what it means', async () => {
    const scan = await scanMemoryNode({
      running: ['containerd'],
      files: {
        '/etc/containerd/config.toml': 'version = 2\n',
        '/etc/cni/net.d/10-bridge.conflist':
          '{"cniVersion":"1.0.0","name":"cbr0","plugins":[{"type":"bridge"}]}',
        '/opt/cni/bin/bridge': 'x',
        '/var/log/containerd.log': `${OLD}\n`,
      },
    });
    expect(scan.status('cni.conf.none')).toBe('pass');
    expect(scan.report.unexplainedLogLines).toEqual({
      total: 1,
      lines: [
        expect.objectContaining({
          path: '/var/log/containerd.log',
          line: 1,
          text: OLD,
          signature: 'linux.containerd.no-network-config',
          title: expect.any(String),
        }),
      ],
    });
  });

  it('leaves out lines a finding quotes', async () => {
    const scan = await scanMemoryNode({
      running: ['containerd'],
      files: {
        '/etc/containerd/config.toml': 'version = 2\n',
        '/etc/cni/net.d/.keep': '',
        '/var/log/containerd.log': `${OLD}\n`,
      },
    });
    expect(scan.findings('cni.conf.none')[0]?.evidence).toContainEqual(
      expect.objectContaining({ kind: 'log', text: OLD }),
    );
    expect(scan.report.unexplainedLogLines).toBeUndefined();
  });
});
