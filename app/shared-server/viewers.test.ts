/**
 * The viewers' endpoints through the real engine backend and the shared dispatcher (what both
 * doors call): whole files from the scan's snapshot, log context as the scan read it, raw CRI
 * answers — and hostile parameters refused or answered "not in this scan", never read from disk.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileView, LogView, CriRaw } from '../../shared/api-viewers';
import { VIEW_LIMITS } from '../../shared/api-viewers';
import type { Evidence } from '../../shared/model/finding';
import { BundleHost } from '../../main/host/bundle-host';
import { openHost } from '../../main/engine/open-host';
import { scanHost } from '../../main/engine/scan';
import { createDispatcher, type Dispatcher } from './dispatch';
import { createEngineBackend, type EngineBackend } from './engine-backend';
import { ProgressBus } from './progress';
import type { RepairPort } from './repair-port';
import { viewFile, viewLog } from './viewers';

const DEMOS = join(process.cwd(), 'assets', 'demo');
const FIXTURE = join(process.cwd(), 'fixtures', 'linux', 'containerd-2-v2-keys-in-v3-config');
const noRepairs: RepairPort = {
  preview: async () => {
    throw new Error('no');
  },
  apply: async () => {
    throw new Error('no');
  },
  undo: async () => {
    throw new Error('no');
  },
  history: async () => [],
  undoPreview: async () => {
    throw new Error('no repairs here');
  },
  record: async () => {
    throw new Error('no repairs here');
  },
};

let backend: EngineBackend | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await backend?.dispose();
  backend = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(live?: () => Promise<BundleHost | Awaited<ReturnType<typeof openHost>>>) {
  backend = await createEngineBackend({
    door: 'web',
    progress: new ProgressBus(),
    repairs: noRepairs,
    demosDir: DEMOS,
    ...(live && { openLiveHost: live }),
  });
  return createDispatcher({ backend });
}

async function ok<T>(d: Dispatcher, op: Parameters<Dispatcher>[0], payload: unknown): Promise<T> {
  const env = await d(op, payload);
  if (!env.ok) throw new Error(`${op}: ${env.error.code} ${env.error.message}`);
  return env.result as T;
}

describe('viewFile', () => {
  it('serves the whole file as the snapshot holds it, with the findings’ marked lines and search', async () => {
    const d = await start(() => BundleHost.open(FIXTURE));
    const scan = await backend!.scan({ source: 'live' });
    const ev = scan.report.findings
      .flatMap((f) => f.evidence.map((e) => ({ f, e })))
      .find(
        (x): x is { f: (typeof scan.report.findings)[0]; e: Extract<Evidence, { kind: 'file' }> } =>
          x.e.kind === 'file' && x.e.lines.some((l) => l.highlight),
      );
    if (!ev) throw new Error('the fixture has a file finding with a marked line');
    const marked = ev.e.lines.filter((l) => l.highlight).map((l) => l.line);

    const v = await ok<FileView>(d, 'viewFile', {
      scanId: scan.scanId,
      path: ev.e.path,
      query: 'SystemdCgroup',
    });
    expect(v.state).toBe('text');
    expect(v.from).toBe(1);
    expect(v.lines).toHaveLength(v.totalLines);
    // Every excerpt line the finding quotes is the same line in the viewer.
    for (const l of ev.e.lines) expect(v.lines[l.line - 1]?.slice(0, 300)).toBe(l.text);
    for (const line of marked)
      expect(v.marks.find((m) => m.line === line)?.findings).toContain(ev.f.id);
    expect(v.search?.lines.length).toBeGreaterThan(0);
    for (const l of v.search!.lines)
      expect(v.lines[l - 1]?.toLowerCase()).toContain('systemdcgroup');
    expect(v.capped).toBeUndefined();

    // A page of it.
    const page = await ok<FileView>(d, 'viewFile', {
      scanId: scan.scanId,
      path: ev.e.path,
      from: 2,
      count: 3,
    });
    expect(page.from).toBe(2);
    expect(page.lines).toEqual(v.lines.slice(1, 4));
    expect(page.search).toBeUndefined();
  });

  it('shows what the scan judged, not what the disk holds now (a live node disk)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cni-doctor-view-'));
    dirs.push(root);
    mkdirSync(join(root, 'etc/containerd'), { recursive: true });
    mkdirSync(join(root, 'var/log'), { recursive: true });
    writeFileSync(join(root, 'etc/containerd/config.toml'), 'version = 2\n[plugins]\n');
    const hit =
      'level=error msg="failed to load cni during init" error="cni config load failed: no network config found in /etc/cni/net.d: cni plugin not initialized"';
    const log = ['one', 'two', hit, 'four'].join('\n') + '\n';
    writeFileSync(join(root, 'var/log/containerd.log'), log);
    const d = await start(() => openHost({ root }));
    const scan = await backend!.scan({ source: 'live' });
    // The node moves on after the scan.
    writeFileSync(join(root, 'etc/containerd/config.toml'), 'version = 3\n# changed\n');
    appendFileSync(join(root, 'var/log/containerd.log'), 'five\n');

    const f = await ok<FileView>(d, 'viewFile', {
      scanId: scan.scanId,
      path: '/etc/containerd/config.toml',
    });
    expect(f.lines).toEqual(['version = 2', '[plugins]', '']);
    expect(f.holder).toBe('containerd config');

    const l = await ok<LogView>(d, 'viewLog', {
      scanId: scan.scanId,
      path: '/var/log/containerd.log',
      line: 3,
      before: 5,
      after: 5,
    });
    expect(l.lines).toEqual(['one', 'two', hit, 'four']);
    expect(l.from).toBe(1);
    expect(l.location).toBe('/var/log/containerd.log:3');
    expect(l.matches.map((m) => m.line)).toEqual([3]);
    expect(l.totalLines).toBe(4);
  });

  it('refuses binary files with a message and marks a file the collection capped', async () => {
    const { snapshot, ...rest } = await scanHost(
      await BundleHost.open(join(DEMOS, 'healthy-node')),
    );
    const k = snapshot.kubelet.known ? snapshot.kubelet.value : null;
    if (!k) throw new Error('demo has a kubelet');
    k.files.push(
      { path: '/etc/bin.conf', text: 'ELF\n\u0000\u0001\u0002', truncated: false },
      { path: '/etc/huge.conf', text: 'a\nb', truncated: true },
    );
    const scan = { scanId: 's-0000000000000000', result: { ...rest, snapshot } };
    const bin = viewFile(scan, { path: '/etc/bin.conf' });
    expect(bin.state).toBe('binary');
    expect(bin.message).toMatch(/binary file .*NUL bytes, the first on line 2/);
    expect(bin.lines).toEqual([]);
    const huge = viewFile(scan, { path: '/etc/huge.conf' });
    expect(huge.capped).toMatch(/the scan read only the first 4 MiB of this file/);
  });

  it('pages a big file within the answer cap, and cuts very long lines with their length', async () => {
    const { snapshot, ...rest } = await scanHost(
      await BundleHost.open(join(DEMOS, 'healthy-node')),
    );
    const k = snapshot.kubelet.known ? snapshot.kubelet.value : null;
    if (!k) throw new Error('demo has a kubelet');
    const long = 'y'.repeat(VIEW_LIMITS.maxLineChars + 123);
    const big = Array.from({ length: 3000 }, (_, i) =>
      i === 0 ? long : `"\\u001b ${'z'.repeat(900)} ${i + 1}`,
    ).join('\n');
    k.files.push({ path: '/etc/big.conf', text: big, truncated: false });
    const scan = { scanId: 's-0000000000000000', result: { ...rest, snapshot } };
    const first = viewFile(scan, { path: '/etc/big.conf', query: 'z 2999' });
    expect(first.totalLines).toBe(3000);
    expect(Buffer.byteLength(JSON.stringify(first))).toBeLessThanOrEqual(
      VIEW_LIMITS.maxAnswerBytes,
    );
    expect(first.lines.length).toBeLessThan(3000);
    expect(first.lines[0]).toHaveLength(VIEW_LIMITS.maxLineChars);
    expect(first.cut).toEqual({ 1: 123 });
    expect(first.search).toEqual({ query: 'z 2999', lines: [2999], total: 1 });
    const next = viewFile(scan, { path: '/etc/big.conf', from: first.from + first.lines.length });
    expect(next.from).toBe(first.lines.length + 1);
    expect(next.lines[0]).toMatch(new RegExp(` ${first.lines.length + 1}$`));
    // Past the end: the last line, never an empty page.
    expect(viewFile(scan, { path: '/etc/big.conf', from: 999_999 }).from).toBe(3000);
  });
});

describe('hostile parameters', () => {
  it('a path that is not in the scan is not served, whatever it names on this machine', async () => {
    const d = await start();
    const scan = await backend!.scan({ source: 'demo', demoId: 'minikube-conflict' });
    for (const path of [
      '/etc/passwd',
      '/etc/cni/net.d/../../../etc/passwd',
      '../../../../etc/shadow',
      '/etc/cni/net.d/./10-kindnet.conflist',
      'C:\\Windows\\win.ini',
      '/proc/self/environ',
      'file:///etc/passwd',
    ]) {
      const env = await d('viewFile', { scanId: scan.scanId, path });
      expect(env).toMatchObject({ ok: false, error: { code: 'not-found' } });
      const log = await d('viewLog', { scanId: scan.scanId, path, line: 1 });
      expect(log).toMatchObject({ ok: false, error: { code: 'not-found' } });
    }
  });

  it('malformed requests are refused before the engine sees them', async () => {
    const d = await start();
    const scan = await backend!.scan({ source: 'demo', demoId: 'minikube-conflict' });
    const path = '/etc/containerd/config.toml';
    const bad: [Parameters<Dispatcher>[0], unknown][] = [
      ['viewFile', { scanId: 's-zz', path }],
      ['viewFile', { scanId: scan.scanId }],
      ['viewFile', { scanId: scan.scanId, path: '' }],
      ['viewFile', { scanId: scan.scanId, path: 'a'.repeat(VIEW_LIMITS.maxPathChars + 1) }],
      ['viewFile', { scanId: scan.scanId, path: '/etc/x\u0000/../passwd' }],
      ['viewFile', { scanId: scan.scanId, path: 42 }],
      ['viewFile', { scanId: scan.scanId, path: ['/etc/passwd'] }],
      ['viewFile', { scanId: scan.scanId, path, from: 0 }],
      ['viewFile', { scanId: scan.scanId, path, from: 1.5 }],
      ['viewFile', { scanId: scan.scanId, path, count: VIEW_LIMITS.maxPageLines + 1 }],
      ['viewFile', { scanId: scan.scanId, path, query: 'q'.repeat(VIEW_LIMITS.maxQueryChars + 1) }],
      ['viewFile', { scanId: scan.scanId, path, extra: true }],
      ['viewFile', JSON.parse(`{"scanId":"${scan.scanId}","path":"${path}","__proto__":{"x":1}}`)],
      ['viewLog', { scanId: scan.scanId, path, line: -1 }],
      ['viewLog', { scanId: scan.scanId, path, line: 1, before: VIEW_LIMITS.maxLogContext + 1 }],
      ['viewLog', { scanId: scan.scanId, path, line: '1' }],
      ['criRaw', { scanId: scan.scanId, path }],
      ['criRaw', {}],
    ];
    for (const [op, payload] of bad)
      expect(await d(op, payload), `${op} ${JSON.stringify(payload)?.slice(0, 80)}`).toMatchObject({
        ok: false,
        error: { code: 'bad-request' },
      });
    // A well-formed id of a scan that is not held.
    expect(await d('viewFile', { scanId: 's-0123456789abcdef', path })).toMatchObject({
      ok: false,
      error: { code: 'not-found', message: 'this scan is no longer held; scan again' },
    });
  });
});

describe('viewLog', () => {
  it('opens the log around a matched line of a finding, with the real line number', async () => {
    const d = await start();
    const scan = await backend!.scan({ source: 'demo', demoId: 'windows-antrea-containerd' });
    const ev = scan.report.findings
      .flatMap((f) => f.evidence)
      .find((e): e is Extract<Evidence, { kind: 'log' }> => e.kind === 'log');
    if (!ev) throw new Error('the Windows demo quotes a log line');
    const v = await ok<LogView>(d, 'viewLog', {
      scanId: scan.scanId,
      path: ev.path,
      line: ev.line,
    });
    expect(v.lines[ev.line - v.from]).toBe(ev.text);
    expect(v.matches.find((m) => m.line === ev.line)?.signatures).toContain(ev.signature);
    expect(v.location).toBe(`${ev.path}:${ev.line}`);
    expect(v.keptFrom).toBe(1);
    // Widening stops at what the scan kept.
    const wide = await ok<LogView>(d, 'viewLog', {
      scanId: scan.scanId,
      path: ev.path,
      line: ev.line,
      before: 200,
      after: 200,
    });
    expect(wide.from).toBe(wide.keptFrom);
    expect(wide.from + wide.lines.length - 1).toBe(wide.keptTo);
    expect(await d('viewLog', { scanId: scan.scanId, path: ev.path, line: 100_000 })).toMatchObject(
      {
        ok: false,
        error: { code: 'not-found' },
      },
    );
  });

  it('stays within the answer cap when the kept lines are all control characters', () => {
    const nasty = '\u0001'.repeat(4000);
    const lines = Array.from({ length: 401 }, () => nasty);
    const scan = {
      scanId: 's-0000000000000000',
      result: {
        snapshot: { logs: { sources: [], matches: [] } },
        report: { findings: [] },
      } as never,
      keptLogs: new Map([
        ['/l', { path: '/l', totalLines: 401, windows: [{ from: 1, lines }], cut: {} }],
      ]),
    };
    const v = viewLog(scan, { path: '/l', line: 201, before: 200, after: 200 });
    expect(Buffer.byteLength(JSON.stringify(v))).toBeLessThanOrEqual(VIEW_LIMITS.maxAnswerBytes);
    expect(v.lines.length).toBeGreaterThan(10);
    expect(v.lines.length).toBeLessThan(401);
    // Centred on the matched line.
    expect(Math.abs(201 - v.from - (v.from + v.lines.length - 1 - 201))).toBeLessThanOrEqual(1);
  });

  it('says "line N of the last 64 MiB" when only the tail was read', () => {
    const scan = {
      scanId: 's-0000000000000000',
      result: {
        snapshot: {
          logs: {
            sources: [],
            matches: [
              {
                signatureId: 'sig',
                path: '/var/log/k.log',
                line: 2,
                text: 'b',
                tailBytes: 64 * 1024 * 1024,
              },
            ],
          },
        },
        report: { findings: [] },
      } as never,
      keptLogs: new Map([
        [
          '/var/log/k.log',
          {
            path: '/var/log/k.log',
            totalLines: 3,
            windows: [{ from: 1, lines: ['a', 'b', 'c'] }],
            cut: {},
          },
        ],
      ]),
    };
    const v = viewLog(scan, { path: '/var/log/k.log', line: 2 });
    expect(v.location).toBe('/var/log/k.log, line 2 of the last 64 MiB');
    expect(v.tailBytes).toBe(64 * 1024 * 1024);
  });
});

describe('criRaw', () => {
  it("pretty-prints the runtime's Version and verbose Status, each info value parsed", async () => {
    const d = await start();
    const scan = await backend!.scan({ source: 'demo', demoId: 'minikube-conflict' });
    const r = await ok<CriRaw>(d, 'criRaw', { scanId: scan.scanId });
    expect(r.unknown).toBeUndefined();
    const e = r.entries[0]!;
    expect(e.endpoint).toBe('unix:///run/containerd/containerd.sock');
    expect(JSON.parse(e.versionJson!)).toMatchObject({ runtimeName: 'containerd' });
    const status = JSON.parse(e.statusJson!) as {
      status: { conditions: unknown[] };
      info: Record<string, unknown>;
    };
    expect(status.status.conditions.length).toBeGreaterThan(0);
    // containerd's info values are JSON text; crictl info shows them parsed, and so does this.
    expect(status.info.cniconfig).toMatchObject({ PluginConfDir: '/etc/cni/net.d' });
    expect(status.info.lastCNILoadStatus).toBe('OK');
    expect(e.statusJson).toContain('\n  "status": {');
  });

  it('says why when the runtime was not asked, and what it answered when it refused', async () => {
    const fx = (n: string) => join(process.cwd(), 'fixtures', 'linux', n);
    const d = await start(() => BundleHost.open(fx('containerd-installed-not-running')));
    const none = await backend!.scan({ source: 'live' });
    expect(await ok<CriRaw>(d, 'criRaw', { scanId: none.scanId })).toEqual({
      scanId: none.scanId,
      entries: [],
      unknown: 'the bundle recorded no CRI answers',
    });
    const bundle = await backend!.openBundle({
      kind: 'path',
      path: fx('stale-containerd-socket-code-14'),
    });
    const refused = await backend!.scan({ source: 'bundle', bundleId: bundle.bundleId });
    const r = await ok<CriRaw>(d, 'criRaw', { scanId: refused.scanId });
    expect(r.entries[0]?.error?.code).toBe(14);
    expect(r.entries[0]?.missing).toMatch(/^the runtime answered with an error \(14\): /);
    expect(r.entries[0]?.statusJson).toBeUndefined();
  });
});
