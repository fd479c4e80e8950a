// No message a door prints leaks an errno code or an internal temp name (issue 22 point 7,
// newcomer review journey 5): the CLI's last line and serve's error envelope say it in words.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toErrorEnvelope } from '../shared-server/errors';
import { runCli } from './run-cli.testutil';

describe('errors in words', () => {
  it('scan --html into a missing folder names the file asked for, not its temp file', async () => {
    const r = await runCli(
      'scan',
      '--bundle',
      'assets/demo/healthy-node',
      '--html',
      '/nonexistent-cni-doctor/report.html',
    );
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe(
      'cni-doctor scan: cannot write /nonexistent-cni-doctor/report.html: no such file or folder (its folder)',
    );
  });

  it('collect into a missing folder says so without ENOENT', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'cnd-words-'));
    const r = await runCli('collect', '--root', root, '--out', '/nonexistent-cni-doctor/b.tar.gz');
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      'cannot write /nonexistent-cni-doctor/b.tar.gz: no such file or folder',
    );
    expect(r.err).not.toMatch(/\bE[A-Z]{3,}\b/);
    rmSync(root, { recursive: true, force: true });
  });

  it('serve hands a page words for an unexpected file-system error', () => {
    const raw = Object.assign(
      new Error("EACCES: permission denied, mkdtemp '/srv/tmp/cni-doctor-uploads-XXXXXX'"),
      { code: 'EACCES' },
    );
    expect(toErrorEnvelope(raw)).toEqual({
      ok: false,
      error: {
        code: 'internal',
        message: 'could not create a temporary folder in /srv/tmp: permission denied',
      },
    });
  });
});
