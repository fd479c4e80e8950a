import { describe, expect, it } from 'vitest';
import type { Finding } from './model/finding';
import { findingMarkdown } from './finding-markdown';

const f: Finding = {
  id: 'cni.conf.shadowed-by-default#containerd',
  rule: 'cni.conf.shadowed-by-default',
  severity: 'error',
  title: 'containerd uses the default 10-containerd-net.conflist instead of kindnet',
  summary: 'containerd loads it first.',
  evidence: [
    {
      kind: 'file',
      path: '/etc/cni/net.d/x.conflist',
      lines: [{ line: 2, text: '"a": "```"', highlight: true }],
    },
  ],
  repairs: [
    {
      id: 'cni.conf.shadowed-by-default:disable-files:containerd',
      title: 'Disable it',
      needsElevation: true,
    },
  ],
};

describe('a finding as Markdown', () => {
  const md = findingMarkdown(
    f,
    {
      node: { os: 'linux', hostname: 'kind-worker', source: 'live' },
      target: { target: 'container:docker/kind-worker', transport: 'docker exec' },
    },
    'kind-worker',
  );
  it('names the finding, the node and the fix command for the same target', () => {
    expect(md).toContain('### ERROR: containerd uses the default 10-containerd-net.conflist');
    expect(md).toContain('- Node: container:docker/kind-worker (docker exec), kind-worker');
    expect(md).toContain(
      '`cni-doctor fix cni.conf.shadowed-by-default:disable-files:containerd --target container:docker/kind-worker`',
    );
  });
  it('fences evidence so that backquotes in a node file cannot end the block', () => {
    expect(md).toContain('````\n>    2  "a": "```"\n````');
  });
});
