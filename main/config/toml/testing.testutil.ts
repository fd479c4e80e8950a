import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import TOML from '@iarna/toml';

// Shared helpers for the toml tests (not a test file itself: vitest only runs *.test.ts).

/** Real upstream files, copied with their source and licence (fixtures/samples/linux/README.md). */
export const SAMPLES_DIR = fileURLToPath(
  new URL('../../../fixtures/samples/linux/', import.meta.url),
);

export const TOML_SAMPLES = [
  'containerd-1.x-cri-config-v2.toml',
  'containerd-2.x-cri-config-v3.toml',
  'containerd.io-default-config.toml',
  'crio-network-section.conf',
  'crio.conf.d-10-crio.conf',
  // Mostly comment: what the parser reads with its comment lines emptied (comment-lines.ts).
  'containers.conf',
] as const;

export function sample(name: string): string {
  return readFileSync(`${SAMPLES_DIR}/${name}`, 'utf8');
}

/** The single hunk between two texts, by lines (common prefix and suffix trimmed). */
export function lineHunk(
  before: string,
  after: string,
): { line: number; removed: string[]; added: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  let ja = a.length;
  let jb = b.length;
  while (ja > i && jb > i && a[ja - 1] === b[jb - 1]) {
    ja--;
    jb--;
  }
  return { line: i + 1, removed: a.slice(i, ja), added: b.slice(i, jb) };
}

/** Parses a written value literal on its own, to compare with the document's value. */
export function parseLiteral(literal: string): unknown {
  return TOML.parse(`v = ${literal}`)['v'];
}
