import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseVersionAnswer, runPluginVersion } from './plugin-version';

const dir = mkdtempSync(path.join(tmpdir(), 'plugin-version-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string | Buffer, mode: number): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  chmodSync(p, mode);
  return p;
}

describe('CNI_COMMAND=VERSION against real binaries', () => {
  // containernetworking-plugins (Debian: /usr/lib/cni; .ci/run installs the package).
  it('reads the supported versions of the real bridge plugin', async () => {
    const r = await runPluginVersion('/usr/lib/cni/bridge');
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.supportedVersions).toEqual(expect.arrayContaining(['0.3.1', '0.4.0']));
  });

  it('says a binary without the execute bit is not executable', async () => {
    expect(await runPluginVersion(file('noexec', '#!/bin/sh\n', 0o644))).toMatchObject({
      ok: false,
      problem: 'not-executable',
    });
  });

  it('says a file the kernel cannot run (another architecture) is one', async () => {
    // An ELF header for aarch64 (e_machine 0xB7), which an x86-64 kernel refuses with ENOEXEC.
    const elf = Buffer.alloc(64);
    Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]).copy(elf);
    elf.writeUInt16LE(2, 16);
    elf.writeUInt16LE(process.arch === 'arm64' ? 0x3e : 0xb7, 18);
    expect(await runPluginVersion(file('other-arch', elf, 0o755))).toMatchObject({
      ok: false,
      problem: 'wrong-architecture',
    });
  });

  it('reports a crash with its exit status', async () => {
    const r = await runPluginVersion(file('crash', '#!/bin/sh\necho boom >&2\nexit 3\n', 0o755));
    expect(r).toMatchObject({ ok: false, problem: 'crashed' });
    expect(r.ok ? '' : r.message).toContain('exit status 3: boom');
  });

  it('reads an answer without supportedVersions as 0.1.0 and 0.2.0 (libcni)', () => {
    expect(parseVersionAnswer('{"cniVersion":"0.2.0"}')).toEqual({
      ok: true,
      cniVersion: '0.2.0',
      supportedVersions: ['0.1.0', '0.2.0'],
    });
    expect(parseVersionAnswer('usage: …')).toMatchObject({ ok: false, problem: 'bad-output' });
  });
});
