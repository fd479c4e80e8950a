import { describe, expect, it } from 'vitest';
import type { Finding, RuleInfo } from '../../../shared/model/finding';
import { areaOf, filterFindings, groupByArea } from './findings';

const f = (id: string, rule: string, severity: Finding['severity'], title = id): Finding => ({
  id,
  rule,
  severity,
  title,
  summary: `${title} summary`,
  evidence: [],
  repairs: [],
});
const all = [
  f('a', 'cni.conf.multiple', 'info'),
  f('b', 'cni.conf.shadowed-by-default', 'error'),
  f('c', 'hns.endpoint.stale', 'warning'),
  f('d', 'log.flannel.cni0-address', 'warning', 'cni0 has another address'),
];
const filter = {
  severities: { error: true, warning: true, info: true },
  text: '',
  muted: [] as string[],
  showMuted: false,
};

describe('findings grouping and filtering', () => {
  it('groups by area in a fixed order, errors first inside a group', () => {
    const g = groupByArea(all);
    expect(g.map((x) => x.area)).toEqual(['cni', 'windows', 'logs']);
    expect(g[0]?.findings.map((x) => x.id)).toEqual(['b', 'a']);
  });

  it('prefers the rule catalog for areas', () => {
    const rules = new Map<string, RuleInfo>([
      [
        'hns.endpoint.stale',
        {
          id: 'hns.endpoint.stale',
          area: 'windows',
          severity: 'warning',
          title: '',
          firesWhen: '',
          repair: { kind: 'auto', text: '' },
          platforms: ['windows'],
        },
      ],
    ]);
    expect(areaOf('hns.endpoint.stale', rules)).toBe('windows');
    expect(areaOf('kubelet.flags.removed')).toBe('kubelet');
    expect(areaOf('something.new')).toBe('logs');
  });

  it('filters by severity and text', () => {
    expect(
      filterFindings(all, {
        ...filter,
        severities: { error: true, warning: false, info: false },
      }).shown.map((x) => x.id),
    ).toEqual(['b']);
    expect(filterFindings(all, { ...filter, text: 'CNI0' }).shown.map((x) => x.id)).toEqual(['d']);
    expect(filterFindings(all, { ...filter, text: 'shadowed' }).shown.map((x) => x.id)).toEqual([
      'b',
    ]);
  });

  it('hides muted findings unless asked, and counts them', () => {
    const r = filterFindings(all, { ...filter, muted: ['a', 'zz'] });
    expect(r.shown.map((x) => x.id)).toEqual(['b', 'c', 'd']);
    expect(r.mutedHidden).toBe(1);
    expect(filterFindings(all, { ...filter, muted: ['a'], showMuted: true }).shown).toHaveLength(4);
  });
});
