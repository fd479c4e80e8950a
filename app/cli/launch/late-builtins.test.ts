import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinsFor, NODE_COMMAND_BUILTINS } from './code-cache';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(REPO, 'bin', 'cni-doctor.cjs');
const PROBE = fileURLToPath(new URL('./late-builtins.cjs', import.meta.url));
const DEMO = join(REPO, 'assets', 'demo', 'minikube-conflict');
const ROOT = join(REPO, 'fixtures', 'linux', 'calico-in-net-d-containerd-reads-net-mk', 'files');
const out = mkdtempSync(join(tmpdir(), 'cnd-late-builtins-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The built-ins a real run of the CLI first loaded after the launcher changed V8's flags. */
function late(args: string[]): string[] {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, NODE_OPTIONS: `--require ${PROBE}`, CNI_DOCTOR_CODE_CACHE: 'off' },
    encoding: 'utf8',
  });
  const m = /late built-ins: (.*)$/m.exec(r.stderr);
  if (!m) throw new Error(`no probe line (exit ${r.status}): ${r.stderr.slice(-500)}`);
  return ((JSON.parse(m[1] as string) as string[] | null) ?? []).filter(
    // Only rmSync itself loads fs's recursive rm.
    (x) => x !== 'internal/fs/rimraf',
  );
}

describe('a one-shot command compiles no built-in from source (Node caches those loaded first)', () => {
  it.each([
    ['scan --bundle', ['scan', '--bundle', DEMO]],
    ['scan --root FOLDER', ['scan', '--root', ROOT]],
    ['collect --root FOLDER', ['collect', '--root', ROOT, '--out', join(out, 'c.tar.gz')]],
    ['--version', ['--version']],
  ])('%s', (_name, args) => {
    expect(late(args)).toEqual([]);
  });
});

describe('builtinsFor', () => {
  it('loads nothing more for a bundle, or for commands that read no node', () => {
    expect(builtinsFor(['scan', '--bundle', 'b'])).toEqual([]);
    expect(builtinsFor(['collect', '--bundle=b'])).toEqual([]);
    expect(builtinsFor(['explain', 'x'])).toEqual([]);
    expect(builtinsFor(['--version'])).toEqual([]);
  });

  it("adds the CRI client's for a node: one reached through a transport, or this machine's", () => {
    for (const argv of [
      ['scan', '--target', 'container:podman/n'],
      ['collect', '--target=ssh:h', '--out', 'x'],
      ['scan'],
      ['scan', '--root', '/'],
    ])
      expect(builtinsFor(argv)).toEqual(expect.arrayContaining([...NODE_COMMAND_BUILTINS]));
    expect(builtinsFor(['scan', '--root', '/mnt/disk'])).not.toContain('node:http2');
    expect(builtinsFor(['collect', '--root', '/mnt/disk'])).toContain('node:worker_threads');
  });
});
