/**
 * The one escaping function for text that came from a node — file names, config values, log
 * lines, HNS and service names, journal entries — on its way to a terminal, a repair preview or
 * a journal view. A config or a file name can carry terminal escape sequences (ESC ] to retitle
 * the window, ESC [2J to clear it, worse on some terminals), a line break that forges a line of
 * its own in a preview the admin approves, or Unicode controls that reorder what is shown
 * (bidirectional overrides, "Trojan Source"). All of them are shown, never obeyed:
 *
 * - C0 controls (line breaks and tabs included), DEL and C1 controls as `\xNN`;
 * - bidirectional controls, line/paragraph separators, zero-width and BOM characters as
 *   `\u{NNNN}`.
 *
 * `visibleLines` is the same for a block whose line breaks are ours (a diff, an excerpt): each
 * line is escaped, the breaks between them stay. Browser-safe (no Node imports).
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

function shown(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u{${code.toString(16).padStart(4, '0')}}`;
}

/** One field of node text, safe for a terminal: every control shown, none obeyed. */
export function visible(s: string): string {
  return s.replace(CONTROL, shown);
}

/** A multi-line block: each line through `visible`, the line breaks kept. */
export function visibleLines(s: string): string {
  return s.split('\n').map(visible).join('\n');
}

/** A deep copy of a JSON-shaped value with every string passed through `visible`. */
export function visibleDeep<T>(v: T): T {
  if (typeof v === 'string') return visible(v) as T;
  if (Array.isArray(v)) return v.map((x: unknown) => visibleDeep(x)) as T;
  if (typeof v === 'object' && v !== null) {
    // Own keys in order, as Object.fromEntries(Object.entries(v)) copied them, without a pair
    // array per key (a report of 2,000 files has tens of thousands). A key the node named
    // `__proto__` stays a key: it is defined, never assigned.
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      const x = visibleDeep((v as Record<string, unknown>)[k]);
      if (k === '__proto__')
        Object.defineProperty(out, k, {
          value: x,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else out[k] = x;
    }
    return out as T;
  }
  return v;
}
