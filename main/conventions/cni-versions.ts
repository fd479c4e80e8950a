/** CNI version strings and libcni generations, as libcni reads them (shared by probes and rules). */

/**
 * libcni generations whose load rules differ (docs/knowledge/cni-loading.md#libcni-versions):
 * v1.1 (containerd 1.6/1.7, CRI-O 1.30), v1.2 (v1.2.3: containerd 2.0, CRI-O 1.31/1.32), v1.3
 * (containerd 2.1+, CRI-O 1.33+).
 */
export type LibcniGen = '1.1' | '1.2' | '1.3';
export const LIBCNI_GENS: readonly LibcniGen[] = ['1.1', '1.2', '1.3'];

/** libcni `version.ParseVersion` (pkg/version/plugin.go): "" is 0.1.0, at most three integer parts. */
export function parseCniVersion(v: string): [number, number, number] | undefined {
  if (v === '') return [0, 1, 0];
  const parts = v.split('.');
  if (parts.length >= 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    // strconv.Atoi: optional sign, decimal digits only.
    if (!/^[+-]?\d+$/.test(p)) return undefined;
    out.push(Number(p));
  }
  return [out[0] ?? 0, out[1] ?? 0, out[2] ?? 0];
}

export function compareCniVersions(a: [number, number, number], b: [number, number, number]) {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}
