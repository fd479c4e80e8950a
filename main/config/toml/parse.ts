import { analyzeToml } from './analyze';
import type { TomlKeyLocation, TomlParseResult, TomlPath, TomlTableLocation } from './types';

export type {
  TomlKeyLocation,
  TomlParseResult,
  TomlPath,
  TomlSpan,
  TomlTableLocation,
} from './types';

/**
 * Parses a TOML document into values plus the source location of every table header
 * and of every key/value assigned outside inline tables and array tables.
 * Never throws: malformed, binary, oversized or hostile input yields `ok: false`.
 */
export function parseToml(text: string): TomlParseResult {
  const a = analyzeToml(text);
  if (!a.ok) return a;
  const keys: TomlKeyLocation[] = a.keys
    .filter((k) => !k.insideArrayTable)
    .map((k) => ({
      path: k.path,
      keySpan: a.lines.span(k.keyStart, k.keyEnd),
      valueSpan: a.lines.span(k.valueStart, k.valueEnd),
      lineSpan: { start: k.lineStart, end: k.lineEnd },
    }));
  const tables: TomlTableLocation[] = a.headers.map((h, idx) => ({
    path: h.path,
    headerSpan: a.lines.span(h.start, h.end),
    isArrayTable: h.isArrayTable,
    bodyEnd: a.headers[idx + 1]?.lineStart ?? text.length,
  }));
  const byPath = new Map<string, TomlKeyLocation>();
  for (const k of keys)
    if (!byPath.has(JSON.stringify(k.path))) byPath.set(JSON.stringify(k.path), k);
  return {
    ok: true,
    value: a.value,
    keys,
    tables,
    locate: (path: TomlPath) => byPath.get(JSON.stringify(path)),
  };
}
