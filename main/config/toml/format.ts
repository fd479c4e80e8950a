import type { TomlEditValue, TomlPath } from './types';

// Serialises the few value shapes repairs write. Output is deliberately plain
// (`["a", "b"]`, `key = value`) so inserted lines look like hand-written config.

export type QuoteStyle = 'single' | 'double';

export function isBareKey(segment: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(segment);
}

const ESCAPED: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\f': '\\f',
  '\r': '\\r',
};

function doubleQuoted(s: string): string {
  const body = s.replace(
    // eslint-disable-next-line no-control-regex
    /["\\\x00-\x1F\x7F]/g,
    (ch) => ESCAPED[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `"${body}"`;
}

/** A TOML string literal; falls back to double quotes when a literal string cannot hold `s`. */
export function formatString(s: string, style: QuoteStyle): string {
  // eslint-disable-next-line no-control-regex
  const literalOk = !/['\x00-\x08\x0A-\x1F\x7F]/.test(s);
  return style === 'single' && literalOk ? `'${s}'` : doubleQuoted(s);
}

export function formatKeySegment(segment: string, style: QuoteStyle): string {
  return isBareKey(segment) ? segment : formatString(segment, style);
}

export function formatKeyPath(path: TomlPath, style: QuoteStyle): string {
  return path.map((seg) => formatKeySegment(seg, style)).join('.');
}

export interface FormatOptions {
  quote: QuoteStyle;
  /** Write whole numbers as floats (`2.0`) because the value being replaced was a float. */
  preferFloat?: boolean;
}

export function formatNumber(n: number, preferFloat: boolean): string | undefined {
  if (!Number.isFinite(n)) return undefined;
  if (Number.isInteger(n)) {
    const s = String(n);
    if (s.includes('e')) return preferFloat ? s : undefined; // beyond 1e21 only a float can hold it
    if (!Number.isSafeInteger(n) && !preferFloat) return undefined;
    return preferFloat ? `${s}.0` : s;
  }
  return String(n);
}

/** Serialises a value, or returns undefined for values TOML cannot represent faithfully. */
export function formatValue(value: TomlEditValue, opts: FormatOptions): string | undefined {
  if (typeof value === 'string') return formatString(value, opts.quote);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return formatNumber(value, opts.preferFloat ?? false);
  if (Array.isArray(value) && value.every((v): v is string => typeof v === 'string')) {
    return `[${value.map((v) => formatString(v, opts.quote)).join(', ')}]`;
  }
  return undefined;
}
