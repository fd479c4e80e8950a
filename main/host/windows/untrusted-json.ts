/**
 * Readers for JSON that PowerShell produced on a node and that is therefore untrusted: any field
 * may be missing or of another type, a one-element array may arrive as the bare element, and
 * Windows PowerShell 5.1 may wrap an array as `{"value":[…],"Count":n}` (docs/knowledge/windows-hns.md#getting-json-out-reliably). None of
 * these readers throws; what does not fit reads as absent.
 */
export type Obj = Readonly<Record<string, unknown>>;

const EMPTY: readonly unknown[] = Object.freeze([]);

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A list whatever the serialiser made of it: array, single item, 5.1 wrapper, or nothing. */
export function asList(v: unknown): readonly unknown[] {
  if (Array.isArray(v)) return v;
  if (v === undefined || v === null || v === '') return EMPTY;
  if (isObj(v) && Array.isArray(v.value) && 'Count' in v) return v.value;
  return [v];
}

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' ? undefined : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** A number from a number or a decimal string ("3" after a text round-trip). */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) return Number(v.trim());
  return undefined;
}

export function bool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (s === 'true') return true;
    if (s === 'false') return false;
  }
  if (typeof v === 'number') return v !== 0;
  return undefined;
}

/**
 * An array with room for exactly `n` items, to be cut to size with `fit`. A `[]` grows to 16
 * slots on its first push; over tens of thousands of small HNS lists that waste dominated the
 * garbage collector's work (measured).
 */
export function sized<T>(n: number): T[] {
  return n === 0 ? [] : new Array<T>(n);
}

export function fit<T>(a: T[], used: number): T[] {
  if (a.length !== used) a.length = used;
  return a;
}

/** Strings of a list; other items are skipped. */
export function strList(v: unknown): string[] {
  const list = asList(v);
  const out = sized<string>(list.length);
  let k = 0;
  for (let i = 0; i < list.length; i++) {
    const s = str(list[i]);
    if (s !== undefined) out[k++] = s;
  }
  return fit(out, k);
}

/** Objects of a list; other items are counted in `skipped`. */
export function objList(v: unknown): { items: Obj[]; skipped: number } {
  const items: Obj[] = [];
  let skipped = 0;
  for (const x of asList(v)) {
    if (isObj(x)) items.push(x);
    else skipped++;
  }
  return { items, skipped };
}
