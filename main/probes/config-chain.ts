/**
 * A runtime's configuration as a chain of TOML files (main file, then imports or drop-ins), with
 * "last file wins" lookups that remember the file and line of the winning key.
 */
import { parseToml } from '../config/toml/parse';
import type { TomlPath } from '../config/toml/types';
import type { ConfigError, Located, TextFile } from '../../shared/model/snapshot';

export interface ParsedConfigFile {
  path: string;
  file: TextFile;
  value: Record<string, unknown>;
  locateLine(path: TomlPath): number | undefined;
}

export function parseConfigFile(
  file: TextFile,
  errors: ConfigError[],
): ParsedConfigFile | undefined {
  if (file.encodingError) {
    // TOML documents are UTF-8; go-toml/v2 (containerd 2.x) refuses anything else (containerd
    // 1.x's go-toml v1 does not check: fixtures/toml-test/README.md).
    errors.push({ path: file.path, message: `not valid TOML: ${file.encodingError}` });
    return undefined;
  }
  // decodeText already dropped the one BOM a file may start with; another is not TOML.
  if (file.text.startsWith('\uFEFF')) {
    errors.push({ path: file.path, message: 'not valid TOML: a second byte order mark', line: 1 });
    return undefined;
  }
  const r = parseToml(file.text);
  if (!r.ok) {
    errors.push({
      path: file.path,
      message: r.error.message,
      ...(r.error.line !== undefined && { line: r.error.line }),
      ...(r.error.column !== undefined && { column: r.error.column }),
    });
    return undefined;
  }
  return { path: file.path, file, value: r.value, locateLine: (p) => r.locate(p)?.keySpan.line };
}

export function getIn(obj: unknown, path: TomlPath): unknown {
  let cur: unknown = obj;
  for (const seg of path) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/** The value of `path` from the last file that sets it. */
export function lookup(
  files: readonly ParsedConfigFile[],
  path: TomlPath,
): Located<unknown> | undefined {
  for (let i = files.length - 1; i >= 0; i--) {
    const f = files[i] as ParsedConfigFile;
    const v = getIn(f.value, path);
    if (v !== undefined) {
      const line = f.locateLine(path);
      return { value: v, source: f.path, ...(line !== undefined && { line }) };
    }
  }
  return undefined;
}

export function lookupString(
  files: readonly ParsedConfigFile[],
  path: TomlPath,
): Located<string> | undefined {
  const v = lookup(files, path);
  return v && typeof v.value === 'string' ? (v as Located<string>) : undefined;
}

export function lookupNumber(
  files: readonly ParsedConfigFile[],
  path: TomlPath,
): Located<number> | undefined {
  const v = lookup(files, path);
  return v && typeof v.value === 'number' ? (v as Located<number>) : undefined;
}

export function lookupBool(
  files: readonly ParsedConfigFile[],
  path: TomlPath,
): Located<boolean> | undefined {
  const v = lookup(files, path);
  return v && typeof v.value === 'boolean' ? (v as Located<boolean>) : undefined;
}

export function lookupStrings(
  files: readonly ParsedConfigFile[],
  path: TomlPath,
): Located<string[]> | undefined {
  const v = lookup(files, path);
  if (!v || !Array.isArray(v.value)) return undefined;
  return { ...v, value: v.value.filter((x): x is string => typeof x === 'string') };
}

/** Dotted display form of a TOML path: plugins."io.containerd.grpc.v1.cri".cni */
export function dotted(path: TomlPath): string {
  return path.map((s) => (/^[A-Za-z0-9_-]+$/.test(s) ? s : `"${s}"`)).join('.');
}
