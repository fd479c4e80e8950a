/**
 * PowerShell's default display of a property value, back into JSON-like data. Format-List shows a
 * nested object as `@{K=V; K2=V2}`, an array as `{a, b}` (at most $FormatEnumerationLimit = 4
 * items, then `...`), a nested object *inside* `@{}` as nothing (`Health=`) and an array inside
 * `@{}` as `System.Object[]` (docs/knowledge/windows-hns.md#getting-json-out-reliably, samples 02/08). Those last two are lossy: they are
 * returned as `null` and the marker string, and reported in `lossy` so fixtures say what is unknown.
 */
export type DisplayValue =
  null | boolean | number | string | DisplayValue[] | { [k: string]: DisplayValue };

export interface DisplayParse {
  value: DisplayValue;
  /** Paths below this value whose content the display format lost. */
  lossy: string[];
}

export function parseDisplayValue(text: string, path = ''): DisplayParse {
  const lossy: string[] = [];
  const value = parseValue(text.trim(), path, lossy);
  return { value, lossy };
}

function parseValue(t: string, path: string, lossy: string[]): DisplayValue {
  if (t === '') return null;
  if (t.startsWith('@{')) {
    const { inner, cut } = stripClose(t.slice(2), path, lossy);
    return parseHash(inner, path, lossy, cut);
  }
  if (t.startsWith('{')) {
    const { inner, cut } = stripClose(t.slice(1), path, lossy);
    const items = parseArray(inner, path, lossy);
    // The item the cut went through is kept only if it is structured and kept something:
    // `@{Destina` left nothing, and a plain value may be a prefix of the real one.
    const last = items[items.length - 1];
    if (cut && (isEmptyObject(last) || last === null || typeof last !== 'object')) items.pop();
    return items;
  }
  return scalar(t, path, lossy);
}

/** The inner text of a bracketed value; an unclosed one (sample cut short) is kept as far as it goes. */
function stripClose(inner: string, path: string, lossy: string[]): { inner: string; cut: boolean } {
  if (depthAtEnd(inner) < 0 && inner.endsWith('}'))
    return { inner: inner.slice(0, -1), cut: false };
  lossy.push(`${path || '<value>'} (cut short)`);
  return { inner, cut: true };
}

function isEmptyObject(v: DisplayValue | undefined): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
}

function depthAtEnd(s: string): number {
  let d = 0;
  for (const c of s) {
    if (c === '{') d++;
    else if (c === '}') d--;
  }
  return d;
}

function parseHash(
  inner: string,
  path: string,
  lossy: string[],
  cut: boolean,
): { [k: string]: DisplayValue } {
  const out: { [k: string]: DisplayValue } = {};
  const parts = splitTop(inner, ';');
  // In a cut object the last entry may stop mid-value (`InternalPort=6` of 6831).
  if (cut) parts.pop();
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue; // a fragment without `=` is the cut-off tail of a sample
    const key = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    const sub = path === '' ? key : `${path}.${key}`;
    if (raw === '') {
      // Inside @{} an empty value is usually a nested object PowerShell printed as nothing.
      out[key] = null;
      continue;
    }
    out[key] = parseValue(raw, sub, lossy);
  }
  return out;
}

function parseArray(inner: string, path: string, lossy: string[]): DisplayValue[] {
  const parts = splitTop(inner, ',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const last = parts[parts.length - 1];
  if (last !== undefined && last.endsWith('...')) {
    parts[parts.length - 1] = last.slice(0, -3);
    lossy.push(`${path} (only the first ${parts.length} items shown)`);
  }
  return parts.filter((p) => p !== '').map((p, i) => parseValue(p, `${path}[${i}]`, lossy));
}

function scalar(t: string, path: string, lossy: string[]): DisplayValue {
  if (t === 'True') return true;
  if (t === 'False') return false;
  if (/^-?\d+$/.test(t)) return Number(t);
  if (t === 'System.Object[]') lossy.push(`${path} (array shown as System.Object[])`);
  return t;
}

/** Split at `sep` outside braces. */
function splitTop(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (c === sep && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}
