import { analyzeToml, type TomlAnalysis } from './analyze';
import { removalRange } from './array-elements';
import { findKey, parentRefusal, unlocatableReason } from './edit-context';
import { formatValue } from './format';
import { planInsertion } from './insert-plan';
import { MAX_KEY_SEGMENTS } from './limits';
import { fileHeaderQuoteStyle, fileValueQuoteStyle, quoteStyleOfValue } from './quote-style';
import type { ScannedKey } from './ast-scan';
import { verifyEdit } from './self-check';
import type { TomlEditResult, TomlEditValue, TomlPath } from './types';
import { valueAt } from './value-tree';

export type { TomlEditResult, TomlEditValue } from './types';

// Minimal text edits for repairs: each function changes only the bytes of the one
// assignment involved, then re-parses the result (verifyEdit) before returning it.
// All functions are pure and never throw.

type Analysed = { ok: true; a: TomlAnalysis } | { ok: false; reason: string };

function prepare(text: unknown, path: unknown): Analysed {
  if (typeof text !== 'string') return { ok: false, reason: 'text must be a string' };
  if (
    !Array.isArray(path) ||
    path.length === 0 ||
    path.length > MAX_KEY_SEGMENTS ||
    !path.every((s) => typeof s === 'string')
  ) {
    return { ok: false, reason: 'path must be a non-empty array of key segments' };
  }
  const a = analyzeToml(text);
  return a.ok ? { ok: true, a } : { ok: false, reason: `cannot edit: ${a.error.message}` };
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

function missingKeyReason(a: TomlAnalysis, path: TomlPath): string {
  return valueAt(a.value, path) === undefined
    ? `${path.join('.')} is not set`
    : unlocatableReason(a, path);
}

/** Whether the written literal is a float, so a whole-number replacement keeps float type. */
function writtenAsFloat(text: string, key: ScannedKey): boolean {
  const literal = text.slice(key.valueStart, key.valueEnd);
  return !/^[+-]?0[xob]/.test(literal) && /^[+-]?(\d[\d_]*)?[.eE]|^[+-]?(inf|nan)$/.test(literal);
}

/** Shields callers from unexpected exceptions: the public API reports, it never throws. */
function guarded(run: () => TomlEditResult): TomlEditResult {
  try {
    return run();
  } catch (err) {
    return {
      ok: false,
      reason: `edit failed: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}

/**
 * Sets `path` to `value`. An existing assignment keeps its key, spacing, comment and
 * string quote style; a missing key is added after its table's last assignment, or as a
 * new `[table]` at the end of the file. Refuses to edit inside inline tables, arrays of
 * tables, or tables built from dotted keys.
 */
export function setTomlValue(text: string, path: TomlPath, value: TomlEditValue): TomlEditResult {
  return guarded(() => {
    const p = prepare(text, path);
    if (!p.ok) return p;
    const { a } = p;
    const existing = findKey(a, path);
    if (existing) {
      const quote = quoteStyleOfValue(existing, text) ?? fileValueQuoteStyle(a);
      const literal = formatValue(value, { quote, preferFloat: writtenAsFloat(text, existing) });
      if (literal === undefined) return { ok: false, reason: 'value cannot be written as TOML' };
      return verifyEdit(a, splice(text, existing.valueStart, existing.valueEnd, literal), path, {
        kind: 'set',
        value,
      });
    }
    if (valueAt(a.value, path) !== undefined)
      return { ok: false, reason: unlocatableReason(a, path) };
    const refusal = parentRefusal(a, path.slice(0, -1));
    if (refusal) return { ok: false, reason: refusal };
    const literal = formatValue(value, { quote: fileValueQuoteStyle(a) });
    if (literal === undefined) return { ok: false, reason: 'value cannot be written as TOML' };
    const ins = planInsertion(a, path, literal, fileHeaderQuoteStyle(a));
    return verifyEdit(a, splice(text, ins.offset, ins.offset, ins.insert), path, {
      kind: 'set',
      value,
    });
  });
}

/** Deletes the line(s) of the assignment of `path`; ok:false when it is not written directly. */
export function removeTomlKey(text: string, path: TomlPath): TomlEditResult {
  return guarded(() => {
    const p = prepare(text, path);
    if (!p.ok) return p;
    const key = findKey(p.a, path);
    if (!key) return { ok: false, reason: missingKeyReason(p.a, path) };
    return verifyEdit(p.a, splice(text, key.lineStart, key.lineEnd, ''), path, { kind: 'remove' });
  });
}

/**
 * Removes every occurrence of the string `element` from the array at `path`, leaving the
 * other elements, comments and line layout untouched (`["cri"]` → `[]`).
 */
export function removeArrayElement(text: string, path: TomlPath, element: string): TomlEditResult {
  return guarded(() => {
    const p = prepare(text, path);
    if (!p.ok) return p;
    const original = valueAt(p.a.value, path);
    if (!findKey(p.a, path)) return { ok: false, reason: missingKeyReason(p.a, path) };
    if (!Array.isArray(original)) return { ok: false, reason: `${path.join('.')} is not an array` };
    if (!original.includes(element))
      return { ok: false, reason: `${JSON.stringify(element)} is not in ${path.join('.')}` };
    let current = text;
    // One occurrence per pass, re-scanning in between, so neighbouring removals never overlap.
    for (let pass = 0; pass < original.length; pass++) {
      const next = removeFirstOccurrence(current, path, element);
      if (!next.ok) return next;
      if (next.text === current) break;
      current = next.text;
    }
    return verifyEdit(p.a, current, path, {
      kind: 'set',
      value: original.filter((v) => v !== element),
    });
  });
}

/** One removal step; returns the text unchanged when no occurrence is left. */
function removeFirstOccurrence(text: string, path: TomlPath, element: string): TomlEditResult {
  const a = analyzeToml(text);
  if (!a.ok) return { ok: false, reason: `self-check failed: ${a.error.message}` };
  const key = findKey(a, path);
  const values = valueAt(a.value, path);
  if (!key || !Array.isArray(values))
    return { ok: false, reason: `${path.join('.')} changed shape while editing` };
  const k = values.indexOf(element);
  if (k === -1) return { ok: true, text };
  const elements = key.elements ?? [];
  if (elements.length !== values.length)
    return { ok: false, reason: `could not match the elements of ${path.join('.')}` };
  const singleLine = !text.slice(key.valueStart, key.valueEnd).includes('\n');
  if (elements.length === 1 && singleLine)
    return { ok: true, text: splice(text, key.valueStart, key.valueEnd, '[]') };
  const range = removalRange(text, elements, k);
  return { ok: true, text: splice(text, range.start, range.end, '') };
}
