/** Loose semantic versions as node components print them: v1.19.1, 1.7.20-1, 2.0.0-rc.1+k3s1. */
export function parseVersion(v: string): [number, number, number] | undefined {
  const m = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(v);
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  if (!x || !y) return 0;
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return 0;
}

/** `minor(v)` ≥ `minor('1.24')` comparisons for Kubernetes releases. */
export function atLeast(v: string, min: string): boolean {
  return compareVersions(v, min) >= 0;
}
