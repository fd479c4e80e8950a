/** A Backend whose every method is a spy, for proving that refused requests never reach it. */
import { vi, type Mock } from 'vitest';
import type { Backend, BackendOp } from './backend';

export type SpyBackend = { [K in BackendOp]: Mock<Backend[K]> };

export function spyBackend(): SpyBackend {
  return {
    info: vi.fn(
      async () =>
        ({
          door: 'web',
          version: 't',
          platform: 'linux',
          defaultSource: { source: 'live' },
          elevated: false,
          repairsAvailable: false,
          elevation: 'unavailable',
        }) as const,
    ),
    scan: vi.fn(async (r) => ({
      scanId: 's-0123456789abcdef',
      request: r,
      label: 'fake',
      report: {
        schema: 'cni-doctor.report/v1',
        node: { os: 'linux', source: 'live' },
        checks: [],
        findings: [],
      },
      evidenceTrimmed: {},
      canApply: false,
    })),
    inventory: vi.fn(async () => {
      throw new Error('not in this fake');
    }),
    hnsObject: vi.fn(async () => {
      throw new Error('not in this fake');
    }),
    listDemos: vi.fn(async () => []),
    listBundles: vi.fn(async () => []),
    listTargets: vi.fn(async () => ({ targets: [], notes: [] })),
    addTarget: vi.fn(async (r: { target: string }) => ({
      targetId: r.target,
      target: r.target,
      what: 'typed',
      source: 'typed' as const,
      canRepair: true,
    })),
    openBundle: vi.fn(
      async () =>
        ({ bundleId: 'b-0123456789abcdef', name: 'x.tar.gz', os: 'linux', warnings: [] }) as const,
    ),
    exportBundle: vi.fn(async () => ({
      fileName: 'node.tar.gz',
      data: new Uint8Array([31, 139, 8, 0]),
    })),
    previewRepair: vi.fn(async () => {
      throw new Error('not in this fake');
    }),
    applyRepair: vi.fn(
      async () =>
        ({ entry: 'e1', repair: 'r', status: 'applied', reason: '', verification: null }) as const,
    ),
    undo: vi.fn(
      async () =>
        ({ entry: 'e1', repair: 'r', status: 'undone', reason: '', verification: null }) as const,
    ),
    history: vi.fn(async () => []),
    previewUndo: vi.fn(async () => ({
      entry: 'e1',
      repair: 'r',
      title: 't',
      status: 'verified' as const,
      changes: [],
      services: [],
      actions: [],
      refusedBecause: [],
    })),
    repairRecord: vi.fn(async () => Promise.reject(new Error('no journal'))),
    rules: vi.fn(async () => []),
    listScans: vi.fn(async () => []),
    compare: vi.fn(async () => {
      throw new Error('not in this fake');
    }),
    watchStatus: vi.fn(async ({ scanId }) => ({ scanId, available: false, stale: false })),
    viewFile: vi.fn(async () => {
      throw new Error('not in this fake');
    }),
    viewLog: vi.fn(async () => {
      throw new Error('not in this fake');
    }),
    criRaw: vi.fn(async (r) => ({ scanId: r.scanId, entries: [], unknown: 'fake' })),
    explain: vi.fn(async () => ({ matches: [], lines: 1 })),
    answerCredential: vi.fn(async () => ({ accepted: false })),
    cluster: vi.fn(async () => ({
      schema: 'cni-doctor.cluster/v1' as const,
      fetchedAt: '2026-01-01T00:00:00.000Z',
      nodes: [],
      elsewhere: [],
      notes: [],
    })),
    clusterScanNode: vi.fn(async (r) => ({
      name: r.node,
      ready: { status: 'True' as const },
      stuck: [],
      stuckCount: 0,
    })),
  };
}

export function callsTotal(b: SpyBackend): number {
  return Object.values(b).reduce((n, fn) => n + fn.mock.calls.length, 0);
}
