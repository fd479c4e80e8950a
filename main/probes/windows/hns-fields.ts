/**
 * Tolerant readers for untrusted HNS JSON. PowerShell serialisation is inconsistent: a single
 * object comes out where an array was meant, Windows PowerShell 5.1 can wrap arrays as
 * `{"value":[…],"Count":n}`, enums arrive as numbers or strings, booleans as `"True"` after a
 * round-trip through list formatting (KB windows §1.4). These helpers absorb all of that so the
 * normaliser stays a straight mapping. They are hot (25,000 objects per scan), so no allocation
 * happens unless a value is actually converted.
 */
export type Obj = Readonly<Record<string, unknown>>;

const EMPTY: readonly unknown[] = Object.freeze([]);

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A list whatever the serialiser made of it: array, single object, 5.1 wrapper, or nothing. */
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

/** A number from a number or a decimal string ("3" after list formatting). */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v.trim());
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

const GUID_BRACES = /^\{(.*)\}$/;

/** Canonical GUID text: trimmed, braces removed, lower case. Non-GUID IDs are lower-cased too. */
export function guid(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  let s = v.trim();
  if (s === '') return undefined;
  const m = GUID_BRACES.exec(s);
  if (m) s = m[1] ?? s;
  return s.toLowerCase();
}

/** The ID of an HNS object or of a `{Id: …}` reference; the casing differs by surface. */
export function idOf(o: Obj): string | undefined {
  return guid(o.ID ?? o.Id ?? o.id);
}

/** Strings of a list, skipping non-strings ("System.Object[]" and friends stay as given). */
export function strList(v: unknown): string[] {
  const list = asList(v);
  const out: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const s = str(list[i]);
    if (s !== undefined) out.push(s);
  }
  return out;
}

export function guidList(v: unknown): string[] {
  const list = asList(v);
  const out: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    const g = isObj(item) ? idOf(item) : guid(item);
    if (g !== undefined) out.push(g);
  }
  return out;
}

/** MAC text in one form: upper case, `-` separated (HNS mixes `0E-2A-0a-…` and `00:11:…`). */
export function mac(v: unknown): string | undefined {
  const s = str(v);
  if (s === undefined) return undefined;
  return s.trim().replace(/:/g, '-').toUpperCase();
}
