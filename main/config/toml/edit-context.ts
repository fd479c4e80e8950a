import type { TomlAnalysis } from './analyze';
import type { ScannedKey } from './ast-scan';
import type { TomlPath } from './types';
import { isTable, valueAt } from './value-tree';

// Questions the editors ask about an analysed document: where a key is written, and
// whether a missing key could be added without guessing at the document's structure.

export function samePath(a: TomlPath, b: TomlPath): boolean {
  return a.length === b.length && a.every((seg, i) => b[i] === seg);
}

/** The assignment that writes `path` directly (not via an inline table or array table). */
export function findKey(a: TomlAnalysis, path: TomlPath): ScannedKey | undefined {
  return a.keys.find((k) => !k.insideArrayTable && samePath(k.path, path));
}

function describe(path: TomlPath): string {
  return path.join('.');
}

/** Why `path` has a value but no editable assignment (it is a table, or lives inside one written inline). */
export function unlocatableReason(a: TomlAnalysis, path: TomlPath): string {
  return isTable(valueAt(a.value, path))
    ? `${describe(path)} is a table, not a value`
    : `${describe(path)} is set inside an inline table or array of tables; refusing to guess where to edit`;
}

function definedByDottedKey(a: TomlAnalysis, table: TomlPath): boolean {
  return a.keys.some(
    (k) =>
      k.segments.length > 1 &&
      table.length > k.tablePath.length &&
      table.length < k.path.length &&
      table.every((seg, i) => k.path[i] === seg),
  );
}

/**
 * Refusal reason when a key under `parent` cannot be added safely: some ancestor is not
 * a table, is an inline table, or was created by dotted keys (adding a `[header]` for
 * it would be a redefinition error and guessing a dotted form is fragile).
 */
export function parentRefusal(a: TomlAnalysis, parent: TomlPath): string | undefined {
  for (let n = 1; n <= parent.length; n++) {
    const prefix = parent.slice(0, n);
    const value = valueAt(a.value, prefix);
    if (value === undefined) return undefined;
    if (!isTable(value))
      return `${describe(prefix)} is not a table (it is a value or an array of tables)`;
    if (findKey(a, prefix)) return `${describe(prefix)} is an inline table; refusing to rewrite it`;
    if (definedByDottedKey(a, prefix))
      return `${describe(prefix)} is defined with dotted keys; refusing to guess where to add the key`;
  }
  return undefined;
}
