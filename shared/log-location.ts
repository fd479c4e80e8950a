/**
 * Where a log line is, in words every door uses: `path:line`, or — when only the file's tail was
 * read — `path, line N of the last 64 MiB`, because a line number counted from the start of the
 * tail is not the file's own line number (a 5-million-line log would otherwise be misquoted).
 */
export function logLineLocation(e: { path: string; line: number; tailBytes?: number }): string {
  if (e.tailBytes === undefined) return `${e.path}:${e.line}`;
  return `${e.path}, line ${e.line} of the last ${byteSize(e.tailBytes)}`;
}

function byteSize(n: number): string {
  const mib = n / (1024 * 1024);
  if (Number.isInteger(mib)) return `${mib} MiB`;
  const kib = n / 1024;
  return Number.isInteger(kib) ? `${kib} KiB` : `${n} bytes`;
}
