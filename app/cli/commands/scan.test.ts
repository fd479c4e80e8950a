import {
  mkdtempSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
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

describe('scan --html', () => {
  it('writes the same findings as the JSON report into a private, self-contained page', async () => {
    dir = mkdtempSync(join(tmpdir(), 'cnd-scan-html-'));
    const demo = join(__dirname, '../../../assets/demo/minikube-conflict');
    const json = captureIo();
    await main(['scan', '--bundle', demo, '--json'], json);
    const report = JSON.parse(json.stdout.join('\n')) as {
      findings: { id: string; title: string }[];
      summary: { topFindingId: string };
    };
    const out = join(dir, 'report.html');
    const io = captureIo();
    await main(['scan', '--bundle', demo, '--html', out], io);
    const html = readFileSync(out, 'utf8');
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const ids = [...html.matchAll(/<h3 id="t-([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!));
    expect(new Set(ids)).toEqual(new Set(report.findings.map((f) => f.id)));
    expect(ids[0]).toBe(report.summary.topFindingId);
    expect(html).not.toMatch(/<script|<link|src=/i);
  });

  it('refuses to write through a planted symlink', async () => {
    dir = mkdtempSync(join(tmpdir(), 'cnd-scan-html-'));
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'keep');
    const out = join(dir, 'report.html');
    symlinkSync(victim, out);
    const io = captureIo();
    await main(
      ['scan', '--bundle', join(__dirname, '../../../assets/demo/healthy-node'), '--html', out],
      io,
    );
    expect(readFileSync(victim, 'utf8')).toBe('keep');
  });
});

describe('scan of a node whose runtime socket the scan may not open (issue 22, point 1)', () => {
  it('reports no cause and no restart, and says the checks could not look and how to rerun', async () => {
    dir = mkdtempSync(join(tmpdir(), 'cnd-scan-eacces-'));
    const sock = '/run/containerd/containerd.sock';
    mkdirSync(join(dir, 'files/etc/containerd'), { recursive: true });
    writeFileSync(join(dir, 'files/etc/containerd/config.toml'), 'version = 2\n');
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({
        format: 'cni-doctor.bundle/v1',
        host: { os: 'linux', hostname: 'kind-node', elevated: false },
        processes: [
          { name: 'containerd', args: ['/usr/bin/containerd'] },
          {
            name: 'kubelet',
            args: ['/usr/bin/kubelet', `--container-runtime-endpoint=unix://${sock}`],
          },
        ],
        paths: { [sock]: { type: 'socket' } },
        cri: [
          {
            endpoint: `unix://${sock}`,
            api: null,
            error: {
              code: 14,
              message: `No connection established. Last error: connect EACCES ${sock}`,
            },
          },
        ],
      }),
    );
    const io = captureIo();
    await main(['scan', '--bundle', dir], io);
    const text = io.stdout.join('\n');
    expect(text).not.toMatch(/stale socket|Restart the containerd/);
    expect(text).not.toMatch(/Most likely cause: .*does not answer CRI/);
    expect(text).toMatch(/! Not running as root: \d+ checks? could not look \(permission denied\)/);
    expect(text).toMatch(/run with sudo on the node \(a bundle: collect it again that way\)/);
  });
});

describe('scan --bundle of a path that does not exist', () => {
  it('says so in words, not ENOENT', async () => {
    const io = captureIo();
    const code = await main(['scan', '--bundle', '/nonexistent/cni-doctor-x.tar.gz'], io);
    expect(code).toBe(2);
    expect(io.stderr).toEqual([
      'cni-doctor scan: cannot open bundle /nonexistent/cni-doctor-x.tar.gz: no such file or folder',
    ]);
  });
});
