import type { TomlPath } from './types';

// Helpers over the value tree the parser returns: tables are plain objects, arrays are
// arrays, datetimes are Dates.

export type TomlTable = Record<string, unknown>;

export function isTable(value: unknown): value is TomlTable {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

function ownValue(table: TomlTable, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

/** Value at `path`, or undefined when any segment is missing or not a table. */
export function valueAt(root: TomlTable, path: TomlPath): unknown {
  let node: unknown = root;
  for (const seg of path) {
    if (!isTable(node)) return undefined;
    node = ownValue(node, seg);
  }
  return node;
}

/**
 * Every non-table value keyed by its JSON-encoded path. Arrays (including arrays of
 * tables) are leaves: the edit self-check compares them as a whole.
 */
export function flattenLeaves(root: TomlTable): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const pending: Array<{ path: string[]; table: TomlTable }> = [{ path: [], table: root }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    for (const key of Object.keys(item.table)) {
      const value = item.table[key];
      const path = [...item.path, key];
      if (isTable(value)) pending.push({ path, table: value });
      else out.set(JSON.stringify(path), value);
    }
  }
  return out;
}

/** Structural equality for TOML values (NaN equals NaN; dates compare by kind and instant). */
export function tomlValuesEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Date || b instanceof Date) {
    return (
      a instanceof Date &&
      b instanceof Date &&
      a.constructor === b.constructor &&
      Object.is(a.getTime(), b.getTime())
    );
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((v, i) => tomlValuesEqual(v, b[i]))
    );
  }
  if (isTable(a) && isTable(b)) {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length &&
      ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && tomlValuesEqual(a[k], b[k]))
    );
  }
  return false;
}
