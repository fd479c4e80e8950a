/**
 * Whether a file may take the byte path of free-text.ts: only the line patterns would apply to
 * it on the string path (no structure to follow). Judged on the bytes, erring towards "might be
 * structured" (which takes the string path, never a wrong one). A PEM key block is not looked
 * for here: the byte path finds one itself (its marker holds "PRIVATE", a hint word) and gives
 * up, which saves a pass over a 64 MiB log tail.
 */
import { looksToml, looksYaml } from './file-kind';

/** From this size on, free text is redacted over its bytes (free-text.ts), not as a string. */
export const BYTE_REDACTION_BYTES = 256 * 1024;

const ASCII_SPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]);
/**
 * Enough bytes for the 65,536 characters looksYaml looks at, whatever the encoding: the answer
 * for a file's first HEAD_BYTES is the answer for the file, unless they are all white space.
 */
export const HEAD_BYTES = 3 * 65536;
const YAML_KEYS = ['apiVersion:', 'kind:', 'clusters:', 'users:'].map((k) => Buffer.from(k));

export function freeTextOnly(path: string, data: Buffer): boolean {
  if (looksToml(path) || looksYaml(path, '')) return false;
  let i = 0;
  while (i < data.length && ASCII_SPACE.has(data[i] as number)) i++;
  const first = data[i];
  // `{`/`[` would be tried as JSON; a non-ASCII byte might be Unicode white space before one.
  if (first === 0x7b || first === 0x5b || (first !== undefined && first >= 0x80)) return false;
  const head = data.subarray(0, HEAD_BYTES);
  return !YAML_KEYS.some((k) => head.includes(k));
}
