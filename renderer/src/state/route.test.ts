import { describe, expect, it } from 'vitest';
import { formatRoute, parseRoute, type Route } from './route';

describe('addresses', () => {
  const cases: Route[] = [
    { screen: 'overview', findingId: null, source: null },
    { screen: 'inventory', findingId: null, source: { source: 'demo', demoId: 'windows-antrea' } },
    {
      screen: 'findings',
      findingId: 'cni.conf.shadowed-by-default#containerd:/etc/cni/net.d/10 a?b&c%.conflist',
      source: { source: 'bundle', bundleId: 'b-1a2b3c' },
    },
    { screen: 'history', findingId: null, source: { source: 'live' } },
  ];
  it.each(cases)('round-trips %j', (r) => {
    expect(parseRoute(formatRoute(r))).toEqual(r);
  });

  it('ignores what it does not know instead of trusting it', () => {
    expect(parseRoute('#/nowhere')).toEqual({ screen: 'overview', findingId: null, source: null });
    expect(parseRoute('#/findings/%E0%A4%A')).toEqual({
      screen: 'overview',
      findingId: null,
      source: null,
    });
    expect(parseRoute('#/checks?src=bundle:../../etc').source).toBeNull();
    expect(parseRoute('#token=abcdefabcdefabcdef').screen).toBe('overview');
    expect(parseRoute('').screen).toBe('overview');
  });
});
