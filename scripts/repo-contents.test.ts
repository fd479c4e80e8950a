/**
 * What the repository may hold. Oracles (go-toml, libcni, Kubernetes …) are run on the machine
 * that records their verdicts; only the verdicts and captures come here, as data with their
 * provenance in words. Fetched upstream code, and the programs or recipes that build it, stay out:
 * no Go sources or modules, and no README step that builds or runs upstream code.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);

function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  return out.split('\0').filter((f) => f !== '');
}

/** Files that are code or build input of another toolchain than this project's. */
const FOREIGN_BUILD = /(^|\/)(go\.mod|go\.sum|go\.work|Cargo\.toml|Makefile|Dockerfile)$|\.go$/;

/** Steps that build or run fetched code (a Go toolchain, a checkout of another project). */
const RECIPE =
  /\bgo (run|build|install|get|mod (edit|download|tidy))\b|\bgit clone\b|\bcargo build\b/;

describe('repository contents', () => {
  const files = trackedFiles();

  it('lists the tracked files', () => {
    expect(files).toContain('package.json');
  });

  it('holds no Go sources, modules or foreign build files', () => {
    expect(files.filter((f) => FOREIGN_BUILD.test(f))).toEqual([]);
  });

  it('has no documentation step that builds or runs upstream code', () => {
    const docs = files.filter((f) => f.endsWith('.md'));
    const hits = docs.flatMap((f) =>
      readFileSync(new URL(f, root), 'utf8')
        .split('\n')
        .flatMap((line, i) => (RECIPE.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});
