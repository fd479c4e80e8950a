import { describe, expect, it } from 'vitest';
import { formatTarget, parseTarget } from './target';

describe('parseTarget', () => {
  it.each([
    ['local', { kind: 'local' }],
    ['bundle:/tmp/n.tar.gz', { kind: 'bundle', path: '/tmp/n.tar.gz' }],
    ['root:/mnt/node', { kind: 'root', dir: '/mnt/node' }],
    [
      'container:docker/kind-control-plane',
      { kind: 'container', engine: 'docker', name: 'kind-control-plane' },
    ],
    ['container:podman/minikube', { kind: 'container', engine: 'podman', name: 'minikube' }],
    [
      'container:nerdctl/k3d-dev-server-0',
      { kind: 'container', engine: 'nerdctl', name: 'k3d-dev-server-0' },
    ],
    ['ssh:node1', { kind: 'ssh', host: 'node1' }],
    ['ssh:admin@10.0.0.5:2222', { kind: 'ssh', host: '10.0.0.5', user: 'admin', port: 2222 }],
    ['ssh:root@[::1]:22', { kind: 'ssh', host: '::1', user: 'root', port: 22 }],
    ['kubectl:worker-1', { kind: 'kubectl', node: 'worker-1' }],
    [
      'kubectl:arn:aws:eks:eu-west-1:1:cluster/prod/ip-10-0-1-2.eu-west-1.compute.internal',
      {
        kind: 'kubectl',
        context: 'arn:aws:eks:eu-west-1:1:cluster/prod',
        node: 'ip-10-0-1-2.eu-west-1.compute.internal',
      },
    ],
  ])('%s', (raw, want) => {
    const r = parseTarget(raw);
    expect(r).toEqual({ ok: true, target: want });
    if (r.ok) expect(parseTarget(formatTarget(r.target))).toEqual(r);
  });

  it.each([
    '',
    'nowhere',
    'container:docker',
    'container:lxc/x',
    'container:docker/-rm',
    'container:docker/a b',
    'ssh:-oProxyCommand=touch /tmp/x',
    'ssh:host;rm -rf /',
    'ssh:$(id)',
    'ssh:user name@host',
    'ssh:host:0',
    'ssh:host:70000',
    'ssh:host:22x',
    'ssh:[::1',
    'kubectl:Node_1',
    'kubectl:ctx/-x',
    'kubectl:-ctx/node',
    'container:docker/name\u001b[2J',
    'ssh:host\nother',
    'x'.repeat(2000),
  ])('refuses %j with a message', (raw) => {
    const r = parseTarget(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.length).toBeGreaterThan(5);
      // The message quotes the input safely: no raw control characters reach a terminal.
      // eslint-disable-next-line no-control-regex
      expect(r.error).not.toMatch(/[\u0000-\u001f]/);
    }
  });
});

describe('Windows targets through PowerShell remoting', () => {
  it('winrm: and pssession: take [USER@]HOST[:PORT] and format back', () => {
    for (const [raw, want] of [
      ['winrm:node1', { kind: 'winrm', host: 'node1' }],
      ['winrm:admin@10.0.0.5:5986', { kind: 'winrm', host: '10.0.0.5', user: 'admin', port: 5986 }],
      ['pssession:CORP\\admin@win-1', { kind: 'pssession', host: 'win-1', user: 'CORP\\admin' }],
      ['pssession:[fe80::1]:22', { kind: 'pssession', host: 'fe80::1', port: 22 }],
    ] as const) {
      const r = parseTarget(raw);
      expect(r).toEqual({ ok: true, target: want });
      if (r.ok) expect(formatTarget(r.target)).toBe(raw);
    }
  });

  it('refuses what could become an option or code', () => {
    for (const raw of [
      'winrm:',
      'winrm:-oProxyCommand=x',
      'pssession:a b',
      'winrm:h:99999',
      "pssession:o'; x",
    ])
      expect(parseTarget(raw).ok, raw).toBe(false);
    const empty = parseTarget('winrm:');
    expect(!empty.ok && empty.error).toMatch(/^winrm:/);
  });
});
