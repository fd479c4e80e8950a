import { getStaticTOMLValue, parseTOML, ParseError, type AST } from 'toml-eslint-parser';
import { lineEndAt, lineStartAt } from './lines';
import { MAX_KEY_SEGMENTS, MAX_VALUE_DEPTH } from './limits';
import type { TomlTable } from './value-tree';

// The document as toml-eslint-parser reads it (TOML 1.0: the version containerd 2.x's
// go-toml/v2 implements; see fixtures/toml-test), reduced to what the editors need: where
// every table header and every key/value of a table sits, and the values themselves.

export interface ScannedHeader {
  path: string[];
  isArrayTable: boolean;
  /** Offsets of `[` … `]`/`]]`. */
  start: number;
  end: number;
  /** Whole header line including its line break. */
  lineStart: number;
  lineEnd: number;
  /** True for `[[x]]` itself and for any table below an array table (`[x.y]` after `[[x]]`). */
  insideArrayTable: boolean;
}

export interface ScannedKey {
  path: string[];
  /** Path of the enclosing table (the header the key sits under; [] for root keys). */
  tablePath: string[];
  /** The key's own segments as written (more than one for dotted keys). */
  segments: string[];
  /** Index into `headers` of the enclosing header, -1 for root keys. */
  headerIndex: number;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  /** The whole line(s) of the assignment, from the line's start to past its line break. */
  lineStart: number;
  lineEnd: number;
  insideArrayTable: boolean;
  /** Spans of the array's top-level elements, when the value is an array. */
  elements?: { start: number; end: number }[];
}

export type ScanResult =
  | { ok: true; headers: ScannedHeader[]; keys: ScannedKey[]; value: TomlTable }
  | { ok: false; message: string; offset: number };

// getStaticTOMLValue builds plain objects: a key named like an Object.prototype member would
// read or overwrite the inherited one (prototype pollution with `__proto__`).
const RESERVED_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

class Refusal extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

function segmentsOf(key: AST.TOMLKey): string[] {
  const out = key.keys.map((k) => (k.type === 'TOMLBare' ? k.name : k.value));
  if (out.length > MAX_KEY_SEGMENTS)
    throw new Refusal(`key has more than ${MAX_KEY_SEGMENTS} dotted segments`, key.range[0]);
  key.keys.forEach((k, i) => {
    const name = out[i] as string;
    if (RESERVED_KEYS.has(name))
      throw new Refusal(
        `key "${name}" is not supported (reserved JavaScript property name)`,
        k.range[0],
      );
  });
  return out;
}

/** Checks every key inside a value (inline tables) and the nesting depth. */
function checkValue(node: AST.TOMLContentNode, depth: number): void {
  if (depth > MAX_VALUE_DEPTH)
    throw new Refusal(`value nested deeper than ${MAX_VALUE_DEPTH} levels`, node.range[0]);
  if (node.type === 'TOMLArray') for (const e of node.elements) checkValue(e, depth + 1);
  if (node.type === 'TOMLInlineTable')
    for (const kv of node.body) {
      segmentsOf(kv.key);
      checkValue(kv.value, depth + 1);
    }
}

/** End of a header: past the `]` (or `]]`) that closes it. */
function headerEnd(text: string, table: AST.TOMLTable): number {
  const close = table.kind === 'array' ? ']]' : ']';
  return text.indexOf(close, table.key.range[1]) + close.length;
}

function belowArrayTable(path: string[], arrayTables: Set<string>): boolean {
  for (let n = 1; n < path.length; n++)
    if (arrayTables.has(JSON.stringify(path.slice(0, n)))) return true;
  return false;
}

export function scanToml(text: string): ScanResult {
  let ast: AST.TOMLProgram;
  try {
    ast = parseTOML(text, { tomlVersion: '1.0.0' });
  } catch (err) {
    if (err instanceof ParseError) return { ok: false, message: err.message, offset: err.index };
    // The parser recurses once per nesting level; a hostile file can exhaust the stack.
    if (err instanceof RangeError)
      return { ok: false, message: 'value nested deeper than the parser can follow', offset: 0 };
    throw err;
  }
  const headers: ScannedHeader[] = [];
  const keys: ScannedKey[] = [];
  const arrayTables = new Set<string>();
  const addKeys = (
    body: AST.TOMLKeyValue[],
    tablePath: string[],
    headerIndex: number,
    inside: boolean,
  ) => {
    for (const kv of body) {
      const segments = segmentsOf(kv.key);
      checkValue(kv.value, 1);
      keys.push({
        path: [...tablePath, ...segments],
        tablePath,
        segments,
        headerIndex,
        keyStart: kv.key.range[0],
        keyEnd: kv.key.range[1],
        valueStart: kv.value.range[0],
        valueEnd: kv.value.range[1],
        lineStart: lineStartAt(text, kv.range[0]),
        lineEnd: lineEndAt(text, kv.range[1]),
        insideArrayTable: inside,
        ...(kv.value.type === 'TOMLArray' && {
          elements: kv.value.elements.map((e) => ({ start: e.range[0], end: e.range[1] })),
        }),
      });
    }
  };
  try {
    const top = ast.body[0];
    for (const node of top.body) {
      if (node.type === 'TOMLKeyValue') {
        addKeys([node], [], -1, false);
        continue;
      }
      const path = segmentsOf(node.key);
      const isArrayTable = node.kind === 'array';
      const insideArrayTable = isArrayTable || belowArrayTable(path, arrayTables);
      if (isArrayTable) arrayTables.add(JSON.stringify(path));
      const end = headerEnd(text, node);
      headers.push({
        path,
        isArrayTable,
        start: node.range[0],
        end,
        lineStart: lineStartAt(text, node.range[0]),
        lineEnd: lineEndAt(text, end),
        insideArrayTable,
      });
      addKeys(node.body, path, headers.length - 1, insideArrayTable);
    }
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, message: err.message, offset: err.offset };
    throw err;
  }
  // Integers beyond 2^53 come back as the nearest double: containerd's settings are far below.
  return { ok: true, headers, keys, value: getStaticTOMLValue(ast) as TomlTable };
}
