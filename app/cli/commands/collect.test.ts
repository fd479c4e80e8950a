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

  it('writes the archive while reading: the same files, manifest and scan as a folder bundle', async () => {
    // A log tail big enough for the byte-wise redaction, with secrets and a known failure in it.
    const logLines = [
      'time="2026-12-01T10:00:00Z" level=info msg="RunPodSandbox for &PodSandboxMetadata{Name:web}"',
      'time="2026-12-01T10:00:01Z" level=info msg="Authorization: Bearer SECRET-big1abcdef"',
      'time="2026-12-01T10:00:02Z" level=info msg="loaded" config={"password":"SECRET-big2"}',
    ];
    const failure =
      'time="2026-12-01T10:00:03Z" level=error msg="RunPodSandbox for &PodSandboxMetadata{Name:web} failed" error="failed to setup network for sandbox \\"abc\\": plugin type=\\"flannel\\" failed (add): failed to find plugin \\"flannel\\" in path [/opt/cni/bin]"';
    const log = `${`${logLines.join('\n')}\n`.repeat(6000)}${failure}\n`;
    const root = baseTree(path.join(work, 'root-both'), {
      ...Object.fromEntries(SECRET_FILES.map((f) => [f.path, f.text])),
      '/var/log/containerd.log': log,
    });
    const archive = path.join(work, 'both.tar.gz');
    const folder = path.join(work, 'both-folder');
    for (const out of [archive, folder]) {
      const io = captureIo();
      const code = await main(
        ['collect', '--root', root, '--out', out, '--cri-timeout', '200'],
        io,
      );
      expect(code, io.stderr.join('\n')).toBe(0);
    }
    const unpacked = path.join(work, 'both-unpacked');
    await import('node:fs/promises').then((f) => f.mkdir(unpacked));
    await extract({ file: archive, cwd: unpacked });

    const rel = (dir: string): string[] =>
      walk(dir)
        .map((f) => path.relative(dir, f))
        .sort();
    expect(rel(unpacked)).toEqual(rel(folder));
    for (const f of rel(folder).filter((x) => x !== 'manifest.json'))
      expect(
        readFileSync(path.join(unpacked, f)).equals(readFileSync(path.join(folder, f))),
        f,
      ).toBe(true);
    const manifestOf = (dir: string): Record<string, unknown> => {
      const m = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      delete m.collectedAt;
      return m;
    };
    expect(manifestOf(unpacked)).toEqual(manifestOf(folder));
    const tail = readFileSync(path.join(unpacked, 'files/var/log/containerd.log'), 'utf8');
    expect(tail).not.toMatch(/SECRET-/);
    expect(tail.split('\n').length).toBe(log.split('\n').length);
    const listed = (manifestOf(unpacked).redactions as { path: string }[]).filter(
      (r) => r.path === '/var/log/containerd.log',
    );
    expect(listed.length).toBe(2 * 6000);

    const scanOf = async (bundle: string): Promise<unknown> => {
      const io = captureIo();
      await main(['scan', '--bundle', bundle, '--json', '--fail-on', 'never'], io);
      const report = JSON.parse(io.stdout.join('\n')) as { findings: unknown[] };
      return report.findings;
    };
    const findings = await scanOf(archive);
    expect(findings).toEqual(await scanOf(folder));
    expect(JSON.stringify(findings)).toContain('flannel');
  });
});
