/**
 * CRI endpoint spelling: `unix:///run/x.sock`, bare `/run/x.sock` (deprecated, still accepted by
 * the kubelet, docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from), `npipe:////./pipe/name` on Windows.
 */
import { pathKey } from './node-paths';

export function endpointToPath(endpoint: string): {
  kind: 'unix' | 'npipe' | 'tcp' | 'other';
  path: string;
} {
  const e = endpoint.trim();
  if (e.startsWith('unix://')) return { kind: 'unix', path: e.slice('unix://'.length) };
  if (e.startsWith('npipe://')) {
    const rest = e.slice('npipe://'.length).replace(/\//g, '\\');
    const m = /\\\\\.\\pipe\\(.+)$/i.exec(rest) ?? /\\?\.?\\?pipe\\(.+)$/i.exec(rest);
    return { kind: 'npipe', path: m?.[1] ?? rest };
  }
  if (e.startsWith('tcp://') || e.startsWith('http')) return { kind: 'tcp', path: e };
  if (e.startsWith('/')) return { kind: 'unix', path: e };
  if (/^\\\\\.\\pipe\\/i.test(e)) return { kind: 'npipe', path: e.slice(9) };
  return { kind: 'other', path: e };
}

export function normalizeEndpoint(endpoint: string): string {
  const { kind, path } = endpointToPath(endpoint);
  if (kind === 'unix') return `unix://${path.startsWith('/') ? path : `/${path}`}`;
  if (kind === 'npipe') return `npipe:////./pipe/${path}`;
  return endpoint.trim();
}

/** Comparison key: `/var/run` ≡ `/run`, pipes case-insensitive (rules.md Definitions). */
export function endpointKey(endpoint: string): string {
  const { kind, path } = endpointToPath(endpoint);
  if (kind === 'unix') return `unix:${pathKey('linux', path)}`;
  if (kind === 'npipe') return `npipe:${path.toLowerCase()}`;
  return endpoint.trim();
}

export function sameEndpoint(a: string, b: string): boolean {
  return endpointKey(a) === endpointKey(b);
}
