import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../shared/model/finding';
import { GROUP_AT_LEAST, groupRepeats } from './group-repeats';

const perFile = (i: number, over: Partial<Finding> = {}): Finding => ({
  id: `cni.conf.invalid#containerd:${i}.conf`,
  rule: 'cni.conf.invalid',
  severity: 'warning',
  title: `${i}.conf is not a valid CNI config`,
  summary: `${i}.conf fails to parse.`,
  runtime: 'containerd',
  evidence: [{ kind: 'path', path: `/etc/cni/net.d/${i}.conf`, state: 'invalid' }],
  repairs: [
    {
      id: `cni.conf.invalid:rename-file:containerd-${i}.conf`,
      title: `Disable ${i}.conf`,
      needsElevation: true,
    },
  ],
  ...over,
});

const other: Finding = {
  id: 'cri.network.not-ready',
  rule: 'cri.network.not-ready',
  severity: 'error',
  title: 'NetworkReady=false',
  summary: 'The runtime reports no network.',
  evidence: [],
  repairs: [],
  relatedFindings: ['cni.conf.invalid#containerd:0.conf', 'cni.conf.invalid#containerd:7.conf'],
};

describe('groupRepeats', () => {
  it('merges 2,000 findings of one kind into one that lists every file and its repair', () => {
    const many = Array.from({ length: 2000 }, (_, i) => perFile(i));
    const { findings } = groupRepeats({ checks: [], findings: [other, ...many] });
    expect(findings).toHaveLength(2);
    const g = findings[1] as Finding;
    expect(g.id).toBe('cni.conf.invalid#all:containerd:warning');
    expect(g.title).toBe('0.conf is not a valid CNI config (and 1,999 more like it)');
    expect(g.members).toEqual(many.map((f) => f.id));
    // The example's evidence first, then one line per member naming its repair.
    expect(g.evidence[0]).toEqual(many[0]?.evidence[0]);
    const listed = g.evidence.filter((e) => e.kind === 'text');
    expect(listed).toHaveLength(2001);
    expect(listed[2000]).toEqual({
      kind: 'text',
      text: '1999.conf is not a valid CNI config — fix: cni.conf.invalid:rename-file:containerd-1999.conf',
    });
    expect(g.repairs).toEqual(many[0]?.repairs);
    // Links to members now point at the group, once.
    expect(findings[0]?.relatedFindings).toEqual(['cni.conf.invalid#all:containerd:warning']);
  });

  it('leaves a handful alone, and never merges across severity, runtime or rule', () => {
    const few = Array.from({ length: GROUP_AT_LEAST - 1 }, (_, i) => perFile(i));
    expect(groupRepeats({ checks: [], findings: few }).findings).toEqual(few);

    const mixed = [
      ...Array.from({ length: GROUP_AT_LEAST - 1 }, (_, i) => perFile(i)),
      perFile(100, { severity: 'error' }),
      ...Array.from({ length: GROUP_AT_LEAST - 1 }, (_, i) =>
        perFile(200 + i, { runtime: 'CRI-O', id: `cni.conf.invalid#crio:${i}.conf` }),
      ),
    ];
    expect(groupRepeats({ checks: [], findings: mixed }).findings).toHaveLength(mixed.length);
  });

  it('keeps the group where its first member stood', () => {
    const many = Array.from({ length: GROUP_AT_LEAST }, (_, i) => perFile(i));
    const solo = { ...other, relatedFindings: undefined };
    const { findings } = groupRepeats({
      checks: [],
      findings: [many[0] as Finding, solo, ...many.slice(1)],
    });
    expect(findings.map((f) => f.id)).toEqual([
      'cni.conf.invalid#all:containerd:warning',
      'cri.network.not-ready',
    ]);
  });
});
