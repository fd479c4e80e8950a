import { parserView } from './comment-lines';
import { checkInput } from './input-guard';
import { LineIndex } from './lines';
import { scanToml, type ScanResult, type ScannedHeader, type ScannedKey } from './ast-scan';
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
  // A BOM is not TOML, but editors write one (containerd 1.x's go-toml accepts it): parserView
  // makes it a blank of the same length.
  const hasBom = text.startsWith('\uFEFF');
  // Mostly-comment configs parse several times faster without their comment lines; every offset
  // the scan gives is then taken back to this document's (comment-lines.ts).
  const view = parserView(text);
  const scan = scanToml(view.text);
  if (view.text !== text) toOriginalOffsets(scan, view.toOriginal);
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

function toOriginalOffsets(scan: ScanResult, at: (offset: number) => number): void {
  if (!scan.ok) {
    scan.offset = at(scan.offset);
    return;
  }
  for (const h of scan.headers) {
    h.start = at(h.start);
    h.end = at(h.end);
    h.lineStart = at(h.lineStart);
    h.lineEnd = at(h.lineEnd);
  }
  for (const k of scan.keys) {
    k.keyStart = at(k.keyStart);
    k.keyEnd = at(k.keyEnd);
    k.valueStart = at(k.valueStart);
    k.valueEnd = at(k.valueEnd);
    k.lineStart = at(k.lineStart);
    k.lineEnd = at(k.lineEnd);
    for (const e of k.elements ?? []) {
      e.start = at(e.start);
      e.end = at(e.end);
    }
  }
}
