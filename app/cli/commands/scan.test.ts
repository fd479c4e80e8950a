import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../main';
import { captureIo } from '../../../fixtures/capture-io';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('scan --bundle with a malformed manifest section', () => {
  it('drops the section, says so on stderr, and reports the checks that needed it as unknown', async () => {
    dir = mkdtempSync(join(tmpdir(), 'cnd-scan-warn-'));
    mkdirSync(join(dir, 'files/etc/cni/net.d'), { recursive: true });
    writeFileSync(
      join(dir, 'files/etc/cni/net.d/10-x.conflist'),
      '{"cniVersion":"1.0.0","name":"x","plugins":[{"type":"bridge"}]}',
    );
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({
        format: 'cni-doctor.bundle/v1',
        host: { os: 'linux' },
        processes: 'not a list',
      }),
    );
    const io = captureIo();
    const code = await main(['scan', '--bundle', dir, '--json'], io);
    expect([0, 3]).toContain(code);
    expect(io.stderr).toEqual([
      expect.stringMatching(
        /^cni-doctor scan: warning: manifest\.json: section "processes" ignored/,
      ),
    ]);
    const report = JSON.parse(io.stdout.join('\n')) as {
      checks: { rule: string; status: string }[];
    };
    expect(report.checks.find((c) => c.rule === 'cri.endpoint.missing')?.status).toBe('unknown');
  });
});
