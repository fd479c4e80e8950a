import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCollection, parseCollectionObject, type WindowsCollection } from './collect-result';
import { toBundlePieces, versionOf } from './collect-manifest';
import type { BundleManifest } from '../../bundle/manifest';
import { parseManifest } from '../../bundle/manifest';

const FIXTURE = new URL(
  '../../../fixtures/windows/collect/antrea-1581-containerd-nat.json',
  import.meta.url,
);

function fixtureDoc(): Record<string, unknown> {
  const doc = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, unknown>;
  delete doc.$comment;
  return doc;
}

/** What the script prints: one compressed line. */
function printed(doc: unknown): string {
  return `${JSON.stringify(doc)}\r\n`;
}

function collection(stdout: string): WindowsCollection {
  const r = parseCollection(stdout);
  if (!r.ok) throw new Error(r.error);
  return r.collection;
}

describe('parseCollection', () => {
  it('reads every section of a full document', () => {
    const c = collection(printed(fixtureDoc()));
    expect(c.host).toMatchObject({
      hostname: 'win-node-1',
      elevated: true,
      osVersion: '10.0.20348',
      ubr: 2849,
    });
    expect(c.pipes?.names).toContain('containerd-containerd');
    expect(c.services?.items.find((s) => s.name === 'antrea-agent')).toMatchObject({
      state: 'Stopped',
      exitCode: 1066,
      nssm: { application: 'C:\\k\\antrea\\bin\\antrea-agent.exe' },
    });
    expect(c.processes?.items).toHaveLength(2);
    expect(c.hns?.source).toBe('HostNetworkingService');
    expect(c.hns?.networks).toHaveLength(1);
    // ConvertTo-Json printed the one namespace as a bare object; it still reads as a list.
    expect(c.hns?.namespaces).toHaveLength(1);
    expect(
      c.files?.items
        .find((f) => f.path.endsWith('0-containerd-nat.json'))
        ?.content?.toString('utf8'),
    ).toContain('"type": "nat"');
    expect(c.timedOut).toBe(false);
    expect(c.warnings).toEqual([]);
  });

  it('skips noise printed before the document and a UTF-8 BOM', () => {
    const c = collection(`\ufeffWARNING: something chatty\r\n${printed(fixtureDoc())}`);
    expect(c.host?.hostname).toBe('win-node-1');
  });

  it('fails (without throwing) on output that is not a collection document', () => {
    expect(parseCollection('')).toMatchObject({ ok: false });
    expect(parseCollection('Get-HnsNetwork : The term is not recognized')).toMatchObject({
      ok: false,
    });
    expect(parseCollection('{"format":"something-else"}')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/unexpected collection format/),
    });
    expect(parseCollection('[1,2]')).toMatchObject({ ok: false });
  });

  it('reads a section of the wrong type as unknown, with a warning', () => {
    const doc = { ...fixtureDoc(), services: 'oops', pipes: null, processes: [1, 2] };
    const c = collection(printed(doc));
    expect(c.services).toBeUndefined();
    expect(c.pipes).toBeUndefined();
    expect(c.processes).toBeUndefined();
    expect(c.warnings.join('\n')).toMatch(/services ignored/);
  });

  it("absorbs Windows PowerShell 5.1's serialiser quirks", () => {
    const doc = fixtureDoc();
    const hns = doc.hns as Record<string, unknown>;
    // {"value":[…],"Count":n} wrapper, a single item instead of a one-element array, numeric enums.
    hns.networks = { value: hns.networks, Count: 1 };
    (doc.pipes as Record<string, unknown>).names = 'containerd-containerd';
    doc.services = {
      source: 'Get-Service',
      items: { name: 'containerd', present: true, state: 4 },
    };
    const c = collection(printed(doc));
    expect(c.hns?.networks).toHaveLength(1);
    expect(c.pipes?.names).toEqual(['containerd-containerd']);
    expect(c.services?.items).toEqual([{ name: 'containerd', present: true, state: 'Running' }]);
  });

  it('turns hnsdiag -d text into objects, whatever sits between them', () => {
    const doc = fixtureDoc();
    doc.hns = {
      source: 'hnsdiag',
      schema: 'v1',
      raw: {
        networks:
          'Networks:\r\n{\r\n    "ID":"B5083512-BE1D-4326-B58F-56CA5154E8D5",\r\n    "Name":"nat {not a brace}",\r\n    "Type":"nat"\r\n}\r\n{"ID":"705B6B4D-E2F2-421A-B31B-E3C5E8831944","Name":"vxlan0","Type":"Overlay"}\r\n',
        endpoints: '[{"ID":"a"},{"ID":"b"}]',
        namespaces: '',
        policyLists: '{"ID":"cut',
      },
      errors: {},
    };
    const c = collection(printed(doc));
    expect(c.hns?.networks.map((n) => n.Name)).toEqual(['nat {not a brace}', 'vxlan0']);
    expect(c.hns?.endpoints).toHaveLength(2);
    expect(c.hns?.policyLists).toHaveLength(0);
    expect(c.warnings.join('\n')).toMatch(/policyLists \(hnsdiag\): object at offset 0 is cut off/);
  });

  it('notices a deadline hit inside the script', () => {
    const doc = fixtureDoc();
    (doc.hns as Record<string, unknown>).timedOut = true;
    expect(collection(printed(doc)).timedOut).toBe(true);
  });

  it('drops file content that is not base64', () => {
    const doc = fixtureDoc();
    doc.files = {
      items: [
        { path: 'C:\\x', type: 'file', contentBase64: '$(Remove-Item x)' },
        { path: 'C:\\y', type: 'weird' },
      ],
    };
    const c = collection(printed(doc));
    expect(c.files?.items).toEqual([{ path: 'C:\\x', type: 'file' }]);
    expect(c.warnings).toHaveLength(2);
  });
});

describe('toBundlePieces', () => {
  const pieces = () => {
    const r = parseCollectionObject(fixtureDoc());
    if (!r.ok) throw new Error(r.error);
    return toBundlePieces(r.collection);
  };

  it('maps host, pipes, services, processes and versions', () => {
    const p = pieces();
    expect(p.host).toEqual({
      os: 'windows',
      hostname: 'win-node-1',
      osVersion: '10.0.20348',
      elevated: true,
    });
    expect(p.pipes).not.toContain('cnisock');
    expect(p.services).toEqual(
      expect.arrayContaining([
        { name: 'containerd', state: 'running' },
        {
          name: 'antrea-agent',
          state: 'failed',
          // How nssm starts it travels with the service (bundle-format.md services[].launch).
          launch: {
            nssm: {
              application: 'C:\\k\\antrea\\bin\\antrea-agent.exe',
              parameters: '--config=C:\\k\\antrea\\etc\\antrea-agent.conf',
              directory: 'C:\\k\\antrea',
            },
          },
        },
        { name: 'ovs-vswitchd', state: 'stopped' },
        { name: 'flanneld', state: 'missing' },
      ]),
    );
    expect(p.processes?.find((x) => x.name === 'kubelet')).toEqual({
      name: 'kubelet',
      pid: 3188,
      args: [
        'C:\\k\\kubelet.exe',
        '--config=C:\\var\\lib\\kubelet\\config.yaml',
        '--container-runtime-endpoint=npipe:////./pipe/containerd-containerd',
        '--pod-infra-container-image=mcr.microsoft.com/oss/kubernetes/pause:1.4.1',
      ],
    });
    expect(p.versions).toEqual({
      kubelet: 'v1.19.1',
      containerd: 'v1.4.1',
      antrea: 'v0.12.0-b4a9a4e',
    });
  });

  it('keeps file contents by native path and lists the rest under paths', () => {
    const p = pieces();
    expect([...p.files.keys()]).toEqual([
      'C:\\Program Files\\containerd\\config.toml',
      'C:\\etc\\cni\\net.d\\0-containerd-nat.json',
      'C:\\etc\\cni\\net.d\\10-antrea.conflist',
    ]);
    expect(p.paths?.['C:\\etc\\cni\\net.d']).toEqual({
      type: 'dir',
      entries: ['0-containerd-nat.json', '10-antrea.conflist'],
    });
    expect(p.paths?.['C:\\Program Files\\containerd\\cni\\conf']).toEqual({ type: 'missing' });
    expect(p.paths?.['C:\\var\\log\\kubelet\\kubelet.err.log']?.error).toMatch(/^EACCES: /);
    expect(p.paths?.['C:\\etc\\cni\\net.d\\0-containerd-nat.json']).toBeUndefined();
  });

  it('passes HNS objects through raw, with an error only when nothing was read', () => {
    const p = pieces();
    expect(p.hns?.error).toBeNull();
    expect(p.hns?.source).toBe('HostNetworkingService');
    expect(p.hns?.networks[0]?.Name).toBe('nat');

    const doc = fixtureDoc();
    doc.hns = { source: null, errors: { source: 'no HNS surface answered' }, networks: [] };
    const r = parseCollectionObject(doc);
    if (!r.ok) throw new Error(r.error);
    expect(toBundlePieces(r.collection).hns?.error).toBe('no HNS surface answered');

    const partial = fixtureDoc();
    (partial.hns as Record<string, unknown>).errors = { policyLists: 'timed out after 120000 ms' };
    const rp = parseCollectionObject(partial);
    if (!rp.ok) throw new Error(rp.error);
    const hp = toBundlePieces(rp.collection).hns;
    expect(hp?.error).toBeNull();
    expect(hp?.errors).toEqual({ policyLists: 'timed out after 120000 ms' });
  });

  it('produces pieces the bundle manifest parser accepts', () => {
    const p = pieces();
    const manifest: BundleManifest = {
      format: 'cni-doctor.bundle/v1',
      host: p.host,
      ...(p.hns && { hns: p.hns }),
      ...(p.pipes && { pipes: p.pipes }),
      ...(p.services && { services: p.services }),
      ...(p.processes && { processes: p.processes }),
      ...(p.versions && { versions: p.versions }),
      ...(p.paths && { paths: p.paths }),
    };
    const parsed = parseManifest(JSON.stringify(manifest));
    expect(parsed.ok && parsed.warnings).toEqual([]);
  });

  it('leaves out what was not collected', () => {
    const p = toBundlePieces({
      format: 'cni-doctor.windows-collect/v1',
      timedOut: false,
      warnings: [],
    });
    expect(p).toEqual({ host: { os: 'windows' }, files: new Map() });
  });
});

describe('versionOf', () => {
  it('prefers --version output, then the version resource', () => {
    expect(versionOf({ component: 'flannel', stdout: 'v0.24.2\n', exitCode: 0 })).toBe('v0.24.2');
    expect(versionOf({ component: 'x', stdout: 'tool 1.2.3 build 7', exitCode: 0 })).toBe('1.2.3');
    expect(versionOf({ component: 'calico', productVersion: '3.26.1' })).toBe('3.26.1');
    expect(
      versionOf({ component: 'x', stdout: 'v1.2.3', exitCode: 2, fileVersion: '' }),
    ).toBeUndefined();
  });
});
