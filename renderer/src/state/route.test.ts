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
    { screen: 'compare', findingId: null, source: { source: 'demo', demoId: 'minikube-conflict' } },
  ];
  it.each(cases)('round-trips %j', (r) => {
    expect(parseRoute(formatRoute(r))).toEqual(r);
  });

  it("keeps the Inventory's tab, filters and sorts, and only what it can trust", () => {
    const r: Route = {
      screen: 'inventory',
      findingId: null,
      source: null,
      inventory: {
        tab: 'hns-endpoints',
        tables: { 0: { query: 'stale & 10.0', sort: { column: 3, descending: true } } },
      },
    };
    expect(formatRoute(r)).toBe('#/inventory?tab=hns-endpoints&q0=stale%20%26%2010.0&s0=3d');
    expect(parseRoute(formatRoute(r))).toEqual(r);
    expect(parseRoute('#/inventory?tab=nope&s0=x&s99=1').inventory).toBeUndefined();
    expect(parseRoute('#/overview?tab=hns-endpoints').inventory).toBeUndefined();
  });

  it('keeps the Compare sides in the address, and only sides it can trust', () => {
    const r: Route = {
      screen: 'compare',
      findingId: null,
      source: null,
      compare: { before: 'src:demo:healthy-node', after: 'scan:s-0123456789abcdef' },
    };
    expect(formatRoute(r)).toBe(
      '#/compare?before=src%3Ademo%3Ahealthy-node&after=scan%3As-0123456789abcdef',
    );
    expect(parseRoute(formatRoute(r))).toEqual(r);
    expect(
      parseRoute('#/compare?before=src%3Abundle%3A..%2F..%2Fetc&after=scan%3A%3Cb%3E'),
    ).toEqual({ screen: 'compare', findingId: null, source: null });
    // Other screens do not carry them.
    expect(parseRoute('#/overview?before=src%3Alive').compare).toBeUndefined();
    expect(formatRoute({ ...r, screen: 'overview' })).toBe('#/overview');
  });

  it('the Compare screen has its own address', () => {
    expect(formatRoute({ screen: 'compare', findingId: null, source: null })).toBe('#/compare');
    expect(parseRoute('#/compare').screen).toBe('compare');
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

describe('viewer addresses', () => {
  const src = { source: 'demo', demoId: 'windows-antrea-containerd' } as const;
  const cases: Route[] = [
    {
      screen: 'findings',
      findingId: 'windows.netns.unsupported',
      source: src,
      viewer: { kind: 'file', path: 'C:\\etc\\cni\\net.d\\10 a&b=c?.conflist', line: 5 },
    },
    { screen: 'overview', findingId: null, source: src, viewer: { kind: 'file', path: '/etc/x' } },
    {
      screen: 'findings',
      findingId: 'f',
      source: null,
      viewer: { kind: 'log', path: 'journald:containerd', line: 1234 },
    },
    { screen: 'overview', findingId: null, source: src, viewer: { kind: 'cri' } },
    {
      screen: 'overview',
      findingId: null,
      source: null,
      viewer: { kind: 'cri', endpoint: 'npipe:////./pipe/containerd-containerd' },
    },
  ];
  it.each(cases)('round-trips %j', (r) => {
    expect(parseRoute(formatRoute(r))).toEqual(r);
  });

  it('keeps the old address of a screen without a viewer', () => {
    expect(formatRoute({ screen: 'findings', findingId: 'a', source: src })).toBe(
      '#/findings/a?src=demo%3Awindows-antrea-containerd',
    );
  });

  it('drops a malformed viewer, keeping the rest of the address', () => {
    for (const q of [
      'view=log&path=/var/log/x',
      'view=log&path=/var/log/x&line=0',
      'view=log&path=/var/log/x&line=-3',
      'view=log&path=/var/log/x&line=1e3',
      'view=file',
      'view=file&path=',
      `view=file&path=${'a'.repeat(5000)}`,
      'view=shell&path=/bin/sh',
    ]) {
      const r = parseRoute(`#/findings/f?src=live&${q}`);
      expect(r.viewer ?? null, q).toBeNull();
      expect(r.findingId).toBe('f');
      expect(r.source).toEqual({ source: 'live' });
    }
    expect(parseRoute('#/findings/f?view=file&path=/x&line=abc').viewer).toEqual({
      kind: 'file',
      path: '/x',
    });
  });
});
