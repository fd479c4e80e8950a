import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifest } from './manifest';
import { parseManifestWithZod } from './manifest-zod.testutil';

const REPO = join(import.meta.dirname, '../..');

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

/**
 * The hand-written checks replaced a zod schema (start-up cost); the schema stays as the
 * reference (manifest-zod.testutil.ts). Both read the same inputs — the recorded bundles, and
 * many generated manifests, mostly well-formed, with wrong types, nulls, missing and extra keys,
 * `__proto__` keys and out-of-range numbers sprinkled in — and must say exactly the same:
 * the same values, keys in the same order, the same undefined-valued keys, the same warnings.
 */
describe('parseManifest says what the zod schema said', () => {
  /** Keys in order, undefined values kept: what toEqual and JSON.stringify alone would blur. */
  const exact = (r: unknown): string =>
    JSON.stringify(r, (_k, v: unknown) => (v === undefined ? '<undefined>' : v));
  const same = (text: string): void => {
    expect(exact(parseManifest(text)), text).toBe(exact(parseManifestWithZod(text)));
  };

  it('on every recorded bundle', () => {
    const files = ['fixtures', 'assets'].flatMap((top) =>
      readdirSync(join(REPO, top), { recursive: true, encoding: 'utf8' })
        .map((f) => join(top, f))
        .filter((f) => f.endsWith('manifest.json') && statSync(join(REPO, f)).isFile()),
    );
    expect(files.length).toBeGreaterThan(40);
    for (const f of files) same(readFileSync(join(REPO, f), 'utf8'));
  });

  it('on generated manifests, well-formed and not', () => {
    let seed = 12345;
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
    const ABSENT = Symbol('absent');
    const junk = (): unknown =>
      pick([
        ABSENT,
        null,
        true,
        false,
        0,
        -1,
        1.5,
        2 ** 53,
        'INF',
        'x',
        '',
        [],
        ['x'],
        {},
        { a: 1 },
      ]);
    type Kind =
      | 'string'
      | 'bool'
      | 'num'
      | 'any'
      | readonly string[]
      | { arr: Kind }
      | { rec: Kind }
      | { obj: Record<string, Kind> };
    const isEnum = (k: Kind): k is readonly string[] => Array.isArray(k);
    const gen = (k: Kind, depth = 0): unknown => {
      if (rnd() < 0.12) return junk();
      if (k === 'string') return pick(['a', 'unix:///run/x.sock', '', 'runtime.v1']);
      if (k === 'bool') return rnd() < 0.5;
      if (k === 'num') return pick([0, 1, 7, 42, -3, 2.5, 'INF', 2 ** 53]);
      if (k === 'any')
        return depth > 2 ? 'v' : gen(pick(['string', 'num', { rec: 'any' }] as const), depth + 1);
      if (isEnum(k)) return rnd() < 0.8 ? pick(k) : 'not-one-of-them';
      if ('arr' in k)
        return Array.from({ length: Math.floor(rnd() * 4) }, () => gen(k.arr, depth + 1));
      const o: Record<string, unknown> = {};
      if ('rec' in k) {
        for (let i = Math.floor(rnd() * 4); i > 0; i--)
          o[pick(['/a', '/b', '9', 'PROTO', 'c'])] = gen(k.rec, depth + 1);
        return o;
      }
      for (const [key, kind] of Object.entries(k.obj) as [string, Kind][]) {
        const v = gen(kind, depth + 1);
        if (v !== ABSENT) o[key] = v;
      }
      if (rnd() < 0.1) o.extra = 1;
      if (rnd() < 0.05) o.PROTO = { polluted: true };
      return o;
    };
    const text: Kind = 'string';
    const criEntry: Kind = {
      obj: {
        endpoint: 'string',
        api: ['runtime.v1', 'runtime.v1alpha2'],
        version: {
          obj: { version: text, runtimeName: text, runtimeVersion: text, runtimeApiVersion: text },
        },
        status: {
          obj: {
            conditions: {
              arr: { obj: { type: 'string', status: 'bool', reason: text, message: text } },
            },
            info: { rec: 'string' },
          },
        },
        sandboxes: {
          arr: {
            obj: { id: 'string', name: text, namespace: text, state: text, createdAt: 'string' },
          },
        },
        error: { obj: { code: 'num', message: text } },
      },
    };
    const manifest: Kind = {
      obj: {
        collectedAt: 'string',
        collector: { obj: { name: 'string', version: 'string' } },
        paths: {
          rec: {
            obj: {
              type: ['file', 'dir', 'socket', 'symlink', 'missing', 'other'],
              entries: { arr: 'string' },
              target: 'string',
              error: 'string',
              truncated: 'bool',
              size: 'num',
              executable: 'bool',
              mtime: 'string',
            },
          },
        },
        pipes: { arr: 'string' },
        processes: { arr: { obj: { name: 'string', pid: 'num', args: { arr: 'string' } } } },
        services: {
          arr: {
            obj: {
              name: 'string',
              state: ['running', 'stopped', 'failed', 'missing', 'unknown'],
              launch: {
                obj: {
                  imagePath: 'string',
                  imagePathError: 'string',
                  nssm: {
                    obj: {
                      application: 'string',
                      parameters: 'string',
                      directory: 'string',
                      stderr: 'string',
                    },
                  },
                  nssmError: 'string',
                },
              },
            },
          },
        },
        versions: { rec: 'string' },
        cri: { arr: criEntry },
        hns: {
          obj: {
            networks: { arr: { rec: 'any' } },
            endpoints: { arr: { rec: 'any' } },
            namespaces: { arr: { rec: 'any' } },
            policyLists: { arr: { rec: 'any' } },
            error: 'string',
            source: 'string',
          },
        },
        pluginVersions: {
          rec: {
            obj: {
              ok: 'bool',
              cniVersion: 'string',
              supportedVersions: { arr: 'string' },
              problem: ['not-executable', 'wrong-architecture', 'crashed', 'bad-output', 'timeout'],
              message: text,
            },
          },
        },
        logs: { arr: { obj: { source: 'string', path: 'string' } } },
        redactions: { arr: { obj: { path: 'string', what: 'string' } } },
      },
    };
    let accepted = 0;
    let warned = 0;
    for (let i = 0; i < 3000; i++) {
      const body = gen(manifest);
      const doc = {
        format: rnd() < 0.97 ? 'cni-doctor.bundle/v1' : 'v0',
        host: gen({
          obj: {
            os: ['linux', 'windows'],
            hostname: 'string',
            osVersion: 'string',
            elevated: 'bool',
          },
        }),
        ...(typeof body === 'object' && body !== null ? body : {}),
      };
      // JSON.stringify cannot write these; JSON.parse reads them all the same.
      const json = JSON.stringify(doc)
        .replaceAll('"INF"', '1e400')
        .replaceAll('"PROTO"', '"__proto__"');
      same(json);
      const r = parseManifest(json);
      if (r.ok) accepted++;
      if (r.ok && r.warnings.length > 0) warned++;
    }
    // The generator reaches both sides: accepted manifests, with and without dropped entries.
    expect(accepted).toBeGreaterThan(1000);
    expect(warned).toBeGreaterThan(500);
    expect(accepted - warned).toBeGreaterThan(50);
  });
});
