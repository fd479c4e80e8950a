/**
 * Defensive readers for the API server's JSON (nodes, pods, events). Everything the API answers
 * is untrusted in shape and size: fields are read only when they have the expected type, strings
 * are capped, and a malformed item is skipped, never a crash.
 */
export type Obj = Record<string, unknown>;

export const obj = (v: unknown): Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A string field, capped (messages from a broken node can be long). */
export function str(v: unknown, max = 300): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v.slice(0, max) : undefined;
}

export const items = (list: unknown): Obj[] => arr(obj(list).items).map(obj);

/** `metadata.name`, `metadata.namespace` of an object. */
export function meta(o: Obj): { name?: string; namespace?: string } {
  const m = obj(o.metadata);
  const name = str(m.name, 253);
  const namespace = str(m.namespace, 63);
  return { ...(name !== undefined && { name }), ...(namespace !== undefined && { namespace }) };
}

export function condition(
  conditions: unknown,
  type: string,
):
  | { status: 'True' | 'False' | 'Unknown'; reason?: string; message?: string; since?: string }
  | undefined {
  const c = arr(conditions)
    .map(obj)
    .find((x) => x.type === type);
  if (!c) return undefined;
  const status = c.status === 'True' || c.status === 'False' ? c.status : 'Unknown';
  const reason = str(c.reason, 120);
  const message = str(c.message, 1000);
  const since = str(c.lastTransitionTime, 40);
  return {
    status,
    ...(reason !== undefined && { reason }),
    ...(message !== undefined && { message }),
    ...(since !== undefined && { since }),
  };
}
