/**
 * Go `encoding/json` semantics that `JSON.parse` does not share, as libcni meets them
 * (docs/knowledge/cni-loading.md#go-json-is-not-jsonparse):
 * - the scanner refuses nesting deeper than 10000 (`encoding/json/scanner.go` maxNestingDepth);
 * - a number decoded into `interface{}` must fit a float64 (`1e400` is an error, V8 says Infinity);
 * - struct fields match keys case-insensitively, and the last matching key wins;
 * - struct fields are typed: a number where a string belongs is an UnmarshalTypeError.
 */

const MAX_NESTING_DEPTH = 10000;

/** The depth error Go reports, or undefined. Counts brackets outside strings only. */
export function nestingError(text: string): string | undefined {
  // Deeper than the limit takes more brackets than that: a shorter text (every conf on a real
  // node) is not walked at all. A scan of 2,000 conflists walked each of them twice.
  if (text.length <= MAX_NESTING_DEPTH) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_NESTING_DEPTH) return 'exceeded max depth';
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}

/** A number V8 turned into ±Infinity: Go's decode into interface{} fails on it. */
export function outOfRangeNumber(doc: unknown): boolean {
  // Iterative: a document may nest 10000 deep, which recursion would not survive.
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number' && !Number.isFinite(v)) return true;
    if (typeof v === 'object' && v !== null) stack.push(...Object.values(v));
  }
  return false;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A struct field as Go's decoder fills it: every key equal to `field` ignoring case, last wins. */
export function structField(obj: Record<string, unknown>, field: string): unknown {
  const want = field.toLowerCase();
  let out: unknown;
  for (const k of Object.keys(obj)) if (k.toLowerCase() === want) out = obj[k];
  return out;
}

function goType(v: unknown): string {
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

function typeError(v: unknown, field: string, want: string): string {
  return `json: cannot unmarshal ${goType(v)} into Go struct field ${field} of type ${want}`;
}

function checkString(v: unknown, field: string): string | undefined {
  return v === undefined || v === null || typeof v === 'string'
    ? undefined
    : typeError(v, field, 'string');
}

function checkStrings(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) return typeError(v, field, '[]string');
  for (const x of v) {
    const e = checkString(x, field);
    if (e) return e;
  }
  return undefined;
}

/**
 * Decodes a plugin config into libcni's `types.NetConf` / `PluginConf` the way Go would and
 * returns the first type error, or the typed fields.
 */
export function decodeNetConf(
  obj: Record<string, unknown>,
  struct = 'NetConf',
): { error: string } | { type: string; name: string; cniVersion: string; ipamType: string } {
  // structField for each field, from one pass over the keys (each key lower-cased once).
  const byField = new Map<string, unknown>();
  for (const k of Object.keys(obj)) byField.set(k.toLowerCase(), obj[k]);
  const get = (k: string) => byField.get(k.toLowerCase());
  for (const k of ['cniVersion', 'name', 'type']) {
    const e = checkString(get(k), `${struct}.${k}`);
    if (e) return { error: e };
  }
  const caps = get('capabilities');
  if (caps !== undefined && caps !== null) {
    if (!isObject(caps))
      return { error: typeError(caps, `${struct}.capabilities`, 'map[string]bool') };
    for (const v of Object.values(caps))
      if (v !== null && typeof v !== 'boolean')
        return { error: typeError(v, `${struct}.capabilities`, 'bool') };
  }
  const ipam = get('ipam');
  let ipamType = '';
  if (ipam !== undefined && ipam !== null) {
    if (!isObject(ipam)) return { error: typeError(ipam, `${struct}.ipam`, 'types.IPAM') };
    const t = structField(ipam, 'type');
    const e = checkString(t, `${struct}.ipam.type`);
    if (e) return { error: e };
    ipamType = typeof t === 'string' ? t : '';
  }
  const dns = get('dns');
  if (dns !== undefined && dns !== null) {
    if (!isObject(dns)) return { error: typeError(dns, `${struct}.dns`, 'types.DNS') };
    for (const k of ['nameservers', 'search', 'options']) {
      const e = checkStrings(structField(dns, k), `${struct}.dns.${k}`);
      if (e) return { error: e };
    }
    const e = checkString(structField(dns, 'domain'), `${struct}.dns.domain`);
    if (e) return { error: e };
  }
  const prev = get('prevResult');
  if (prev !== undefined && prev !== null && !isObject(prev))
    return { error: typeError(prev, `${struct}.prevResult`, 'map[string]interface {}') };
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    type: str(get('type')),
    name: str(get('name')),
    cniVersion: str(get('cniVersion')),
    ipamType,
  };
}
