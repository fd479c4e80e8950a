import { analyzeToml, type TomlAnalysis } from './analyze';
import type { TomlEditResult, TomlPath } from './types';
import { flattenLeaves, tomlValuesEqual } from './value-tree';

// Every edit is verified by re-parsing the result: the text must still parse and every
// value other than the one being edited must be unchanged. This catches scanner bugs
// and odd layouts we did not anticipate before anything is written to a node.

export type ExpectedChange = { kind: 'remove' } | { kind: 'set'; value: unknown };

function isUnder(encoded: string, path: TomlPath): boolean {
  const p = JSON.parse(encoded) as string[];
  return path.length <= p.length && path.every((seg, i) => p[i] === seg);
}

export function verifyEdit(
  before: TomlAnalysis,
  newText: string,
  path: TomlPath,
  change: ExpectedChange,
): TomlEditResult {
  const after = analyzeToml(newText);
  if (!after.ok)
    return {
      ok: false,
      reason: `self-check failed: edited text does not parse (${after.error.message})`,
    };
  const expected = flattenLeaves(before.value);
  for (const key of [...expected.keys()]) if (isUnder(key, path)) expected.delete(key);
  if (change.kind === 'set') expected.set(JSON.stringify(path), change.value);
  const actual = flattenLeaves(after.value);
  for (const [key, value] of expected) {
    if (!actual.has(key) || !tomlValuesEqual(actual.get(key), value)) {
      return { ok: false, reason: `self-check failed: value of ${key} would change unexpectedly` };
    }
  }
  for (const key of actual.keys()) {
    if (!expected.has(key))
      return { ok: false, reason: `self-check failed: edit would add unexpected key ${key}` };
  }
  return { ok: true, text: newText };
}
