import { checkInput } from './input-guard';
import { LineIndex } from './lines';
import { scanToml, type ScannedHeader, type ScannedKey } from './scan';
import type { TomlParseError } from './types';
import { parseValues } from './value-parse';
import { valueAt, type TomlTable } from './value-tree';

// One entry point shared by parseToml and the editors: guard → locate → build values →
// cross-check. Edits need the scanner's internal detail (dotted keys, enclosing
// header), which the public TomlParseResult deliberately does not expose.

export interface TomlAnalysis {
  ok: true;
  text: string;
  value: TomlTable;
  headers: ScannedHeader[];
  keys: ScannedKey[];
  lines: LineIndex;
}

export type TomlAnalysisResult = TomlAnalysis | { ok: false; error: TomlParseError };

export function analyzeToml(text: string): TomlAnalysisResult {
  try {
    return analyzeUnsafe(text);
  } catch (err) {
    // Nothing below is expected to throw; this only keeps the public API total.
    return {
      ok: false,
      error: {
        message: `TOML analysis failed: ${err instanceof Error ? err.message : String(err)}`,
      },
    };
  }
}

function analyzeUnsafe(text: string): TomlAnalysisResult {
  const bad = checkInput(text);
  if (bad) return { ok: false, error: bad };
  const lines = new LineIndex(text);
  const scan = scanToml(text);
  if (!scan.ok) {
    const { line, column } = lines.position(scan.offset);
    return {
      ok: false,
      error: { message: `${scan.message} (line ${line}, column ${column})`, line, column },
    };
  }
  const hasBom = text.startsWith('\uFEFF');
  // @iarna/toml rejects a CR before the LF that ends a comment ("Control characters …
  // are not allowed in comments"), so CRLF files are handed over as LF. Line numbers are
  // unchanged; multi-line string values get LF, a normalisation the TOML spec allows.
  const parsed = parseValues((hasBom ? text.slice(1) : text).replace(/\r\n/g, '\n'));
  if (!parsed.ok) {
    const { line, column } = parsed.error;
    const col = hasBom && line === 1 && column !== undefined ? column + 1 : column;
    const where = line !== undefined && col !== undefined ? ` (line ${line}, column ${col})` : '';
    return { ok: false, error: { message: parsed.error.message + where, line, column: col } };
  }
  // Locations we hand out must point at values that really exist; if the scanner and
  // the library ever disagree, refusing is safer than quoting or editing a wrong line.
  for (const key of scan.keys) {
    if (!key.insideArrayTable && valueAt(parsed.value, key.path) === undefined) {
      const { line, column } = lines.position(key.keyStart);
      return {
        ok: false,
        error: { message: `internal error: could not resolve key at line ${line}`, line, column },
      };
    }
  }
  return { ok: true, text, value: parsed.value, headers: scan.headers, keys: scan.keys, lines };
}
