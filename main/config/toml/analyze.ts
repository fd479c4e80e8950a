import { checkInput } from './input-guard';
import { LineIndex } from './lines';
import { scanToml, type ScannedHeader, type ScannedKey } from './ast-scan';
import type { TomlParseError } from './types';
import type { TomlTable } from './value-tree';

// One entry point shared by parseToml and the editors: guard → parse (toml-eslint-parser: values
// and locations from one AST, so they cannot disagree). Edits need the scan's internal detail
// (dotted keys, enclosing header), which the public TomlParseResult deliberately does not expose.

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
  // A BOM is not TOML, but editors write one (containerd 1.x's go-toml accepts it). A space
  // keeps every offset where it was and is blank to the parser.
  const hasBom = text.startsWith('\uFEFF');
  const scan = scanToml(hasBom ? ` ${text.slice(1)}` : text);
  if (!scan.ok) {
    const { line, column } = lines.position(scan.offset);
    return {
      ok: false,
      error: { message: `${scan.message} (line ${line}, column ${column})`, line, column },
    };
  }
  // The first line starts after the BOM: removing that line must keep it.
  if (hasBom) for (const k of scan.keys) if (k.lineStart === 0) k.lineStart = 1;
  return { ok: true, text, value: scan.value, headers: scan.headers, keys: scan.keys, lines };
}
