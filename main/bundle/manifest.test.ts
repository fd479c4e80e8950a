import { describe, expect, it } from 'vitest';
import { parseManifest } from './manifest';

const base = { format: 'cni-doctor.bundle/v1', host: { os: 'linux' } };

function parse(extra: Record<string, unknown>) {
  const r = parseManifest(JSON.stringify({ ...base, ...extra }));
  if (!r.ok) throw new Error(r.error);
  return r;
}

describe('parseManifest: facts not obtained and malformed entries', () => {
  it('reads null as "not obtained", per field, and keeps the entry', () => {
    const r = parse({
      cri: [
        {
          endpoint: 'unix:///run/containerd/containerd.sock',
          api: null,
          version: null,
          status: null,
          sandboxes: null,
          error: { code: 14, message: 'connect: connection refused' },
        },
      ],
      processes: [{ name: 'kubelet', pid: null, args: null }],
      versions: { kubelet: 'v1.29.4', containerd: null },
      paths: { '/etc/cni/net.d': { type: 'dir', entries: null, size: null } },
      collectedAt: null,
    });
    expect(r.warnings).toEqual([]);
    expect(r.manifest.cri).toEqual([
      {
        endpoint: 'unix:///run/containerd/containerd.sock',
        api: null,
        error: { code: 14, message: 'connect: connection refused' },
      },
    ]);
    expect(r.manifest.processes).toEqual([{ name: 'kubelet', args: [] }]);
    expect(r.manifest.versions).toEqual({ kubelet: 'v1.29.4' });
    expect(r.manifest.paths).toEqual({ '/etc/cni/net.d': { type: 'dir' } });
  });

  it('drops only the malformed entry of a list and says so', () => {
    const r = parse({
      cri: [
        { endpoint: 42 },
        {
          endpoint: 'unix:///run/crio/crio.sock',
          status: { conditions: [{ type: 1 }], info: { a: 'b', c: 3 } },
        },
      ],
      services: [{ name: 'containerd', state: 'running' }, 'kubelet'],
    });
    expect(r.manifest.cri).toHaveLength(1);
    expect(r.manifest.cri?.[0]?.status).toEqual({ conditions: [], info: { a: 'b' } });
    expect(r.manifest.services).toEqual([{ name: 'containerd', state: 'running' }]);
    expect(r.warnings).toEqual([
      'manifest.json: 1 malformed entry of "services" dropped; the rest of the section is used',
      'manifest.json: 1 malformed entry of "cri" dropped; the rest of the section is used',
    ]);
  });

  it('drops a section of the wrong shape altogether, and keeps the others', () => {
    const r = parse({ cri: 'refused', services: [{ name: 'kubelet', state: 'running' }] });
    expect(r.manifest.cri).toBeUndefined();
    expect(r.manifest.services).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/section "cri" ignored/);
  });
});
