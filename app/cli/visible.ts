/**
 * Node files and bundles are untrusted: a config or log line may carry terminal escape sequences
 * (ESC ] … to retitle the window, ESC [2J to clear it, worse on some terminals). Text meant for a
 * terminal shows control characters as `\xNN` instead of sending them.
 */
// C0 controls except \t and \n, DEL, and the C1 range.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

export function visible(s: string): string {
  return s.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** A deep copy of a JSON-shaped value with every string passed through `visible`. */
export function visibleDeep<T>(v: T): T {
  if (typeof v === 'string') return visible(v) as T;
  if (Array.isArray(v)) return v.map((x: unknown) => visibleDeep(x)) as T;
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visibleDeep(x)])) as T;
  return v;
}
