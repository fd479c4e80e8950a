// Public shapes of the TOML reader/editor. Kept in their own file so consumers (rules,
// repairs) can import the types without pulling in the parser.

/** Key path from the document root, e.g. ['plugins', 'io.containerd.grpc.v1.cri', 'cni', 'conf_dir']. */
export type TomlPath = readonly string[];

/**
 * A region of the text. line/column are 1-based and count UTF-16 code units (what editors
 * and JS string offsets use); endLine/endColumn point just past the last character.
 * start/end are offsets into the original text (end exclusive).
 */
export interface TomlSpan {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  start: number;
  end: number;
}

export interface TomlKeyLocation {
  path: TomlPath;
  /** The key as written, including every dotted segment (`a.b.c` in `a.b.c = 1`). */
  keySpan: TomlSpan;
  /** The value as written (a multi-line array or string spans several lines). */
  valueSpan: TomlSpan;
  /** The whole line(s) of the assignment, including leading indentation and the line break. */
  lineSpan: { start: number; end: number };
}

export interface TomlTableLocation {
  path: TomlPath;
  /** From the opening `[` to the closing `]` (or `]]`). */
  headerSpan: TomlSpan;
  isArrayTable: boolean;
  /** Offset where the table's body ends: start of the next header's line, or EOF. */
  bodyEnd: number;
}

export interface TomlParseError {
  message: string;
  line?: number;
  column?: number;
}

export type TomlParseResult =
  | {
      ok: true;
      value: Record<string, unknown>;
      keys: TomlKeyLocation[];
      tables: TomlTableLocation[];
      locate(path: TomlPath): TomlKeyLocation | undefined;
    }
  | { ok: false; error: TomlParseError };

export type TomlEditValue = string | number | boolean | string[];

export type TomlEditResult = { ok: true; text: string } | { ok: false; reason: string };
