/**
 * Issue 9, must-be-true 4: `collect` on a node disk holding every secret shape of item 6 — in
 * the runtime's config, the CNI confs, the kubeconfigs those confs point to, a kubelet drop-in
 * and a log — leaves none in the archive, the redacted files still parse, and the manifest
 * lists each redaction.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { extract } from 'tar';
import { parse as parseYaml } from 'yaml';
import { main } from '../main';
import { captureIo } from '../../../fixtures/capture-io';
import { baseTree } from '../../../fixtures/hostile/build';
import { parseToml } from '../../../main/config/toml';
import { SECRET_FILES } from '../../../main/bundle/redaction/secret-shapes.testutil';

const work = mkdtempSync(path.join(tmpdir(), 'collect-secrets-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

function parses(format: string, text: string): boolean {
  try {
    if (format === 'json') JSON.parse(text);
    else if (format === 'toml') return parseToml(text).ok;
    else if (format === 'yaml') parseYaml(text);
    return true;
  } catch {
    return false;
  }
}

describe('collect on a node disk full of secrets', () => {
  it('leaves no secret in the archive, keeps every file parseable, lists every redaction', async () => {
    const root = baseTree(
      path.join(work, 'root'),
      Object.fromEntries(SECRET_FILES.map((f) => [f.path, f.text])),
    );
    const out = path.join(work, 'node.tar.gz');
    const io = captureIo();
    const code = await main(['collect', '--root', root, '--out', out, '--cri-timeout', '200'], io);
    expect(code, io.stderr.join('\n')).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);

    const unpacked = path.join(work, 'unpacked');
    rmSync(unpacked, { recursive: true, force: true });
    await import('node:fs/promises').then((f) => f.mkdir(unpacked));
    await extract({ file: out, cwd: unpacked });
    for (const file of walk(unpacked))
      expect(readFileSync(file, 'latin1'), path.relative(unpacked, file)).not.toMatch(/SECRET-/);

    const manifest = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')) as {
      redactions: { path: string; what: string }[];
    };
    for (const f of SECRET_FILES) {
      // Recorded (the kubeconfigs only because the CNI confs name them), redacted, parseable.
      const text = readFileSync(path.join(unpacked, 'files', f.path), 'utf8');
      expect(parses(f.format, text), f.path).toBe(true);
      expect(text.split('\n').length, f.path).toBe(f.text.split('\n').length);
      // Each secret's line is listed for its file.
      const listed = new Set(
        manifest.redactions
          .filter((r) => r.path === f.path)
          .map((r) => /line (\d+)/.exec(r.what)?.[1]),
      );
      for (const s of f.secrets) {
        const line = f.text.slice(0, f.text.indexOf(s)).split('\n').length;
        expect(listed.has(String(line)), `${f.path}: ${s} on line ${line}`).toBe(true);
      }
    }
  });
});
