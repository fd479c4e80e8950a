import { describe, expect, it, vi } from 'vitest';
import { createHttpApi } from './http-client';
import { DoctorApiError, asApiError } from './errors';
import { readEventStream } from './event-stream';

const ok = (result: unknown) =>
  new Response(JSON.stringify({ ok: true, result }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });

describe('HTTP DoctorApi', () => {
  it('sends ids in JSON with the bearer token, never credentials', async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => ok({ repairId: 'r' }));
    const api = createHttpApi({ token: 'T0KEN', fetch });
    await api.previewRepair('s-0123456789abcdef', 'cni.conf.none:enable');
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/preview-repair');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('omit');
    expect(init?.headers).toMatchObject({
      Authorization: 'Bearer T0KEN',
      'Content-Type': 'application/json',
    });
    expect(JSON.parse(String(init?.body))).toEqual({
      scanId: 's-0123456789abcdef',
      repairId: 'cni.conf.none:enable',
    });
  });

  it('turns an error envelope into a DoctorApiError with its code', async () => {
    const api = createHttpApi({
      token: 't',
      fetch: async () =>
        new Response(
          JSON.stringify({ ok: false, error: { code: 'not-found', message: 'no such repair' } }),
          { status: 404 },
        ),
    });
    await expect(api.previewRepair('s-1', 'x')).rejects.toMatchObject({
      code: 'not-found',
      message: 'no such repair',
    });
  });

  it('uploads a bundle as raw bytes with its name in a header', async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) =>
      ok({ bundleId: 'b-1', name: 'n', os: 'linux', warnings: [] }),
    );
    const api = createHttpApi({ token: 't', fetch });
    await api.openBundle({
      kind: 'upload',
      fileName: 'node 1.tar.gz',
      data: new Uint8Array([31, 139]).buffer,
    });
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.headers).toMatchObject({
      'Content-Type': 'application/gzip',
      'X-Bundle-Name': 'node%201.tar.gz',
    });
    await expect(api.openBundle({ kind: 'dialog' })).rejects.toBeInstanceOf(DoctorApiError);
  });

  it('hands an exported bundle to the download step', async () => {
    const save = vi.fn();
    const api = createHttpApi({
      token: 't',
      fetch: async () =>
        new Response(new Uint8Array([31, 139, 8]), {
          status: 200,
          headers: {
            'Content-Type': 'application/gzip',
            'Content-Disposition': 'attachment; filename="n.tar.gz"',
          },
        }),
      saveDownload: save,
    });
    expect(await api.exportBundle()).toEqual({ fileName: 'n.tar.gz', bytes: 3 });
    expect(save).toHaveBeenCalledOnce();
  });

  it('reads progress from the event stream and stops when the last listener leaves', async () => {
    let aborted = false;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(
          new TextEncoder().encode(
            ': hi\n\nevent: progress\ndata: {"kind":"scan","jobId":"j","step":"cni",',
          ),
        );
        c.enqueue(new TextEncoder().encode('"done":false}\n\n'));
      },
    });
    const fetch = vi.fn(async (_u: string, init?: RequestInit) => {
      init?.signal?.addEventListener('abort', () => (aborted = true));
      return new Response(body, { status: 200 });
    });
    const api = createHttpApi({ token: 't', fetch });
    const got = await new Promise((resolve) => {
      const off = api.onProgress((e) => {
        off();
        resolve(e);
      });
    });
    expect(got).toEqual({ kind: 'scan', jobId: 'j', step: 'cni', done: false });
    expect(aborted).toBe(true);
    expect(fetch.mock.calls[0]?.[1]?.headers).toEqual({ Authorization: 'Bearer t' });
  });
});

describe('event stream parser', () => {
  it('handles CRLF, comments and multi-line data', async () => {
    const text = 'event: progress\r\ndata: a\r\ndata: b\r\n\r\n: comment\n\ndata: c\n\n';
    const out: [string, string][] = [];
    await readEventStream(new Response(text).body as ReadableStream<Uint8Array>, (e, d) =>
      out.push([e, d]),
    );
    expect(out).toEqual([
      ['progress', 'a\nb'],
      ['message', 'c'],
    ]);
  });
});

describe('asApiError', () => {
  it('recovers the code the preload put in front of the message', () => {
    expect(
      asApiError(new Error("Error invoking remote method 'doctor:scan': [refused] plan changed")),
    ).toMatchObject({ code: 'refused', message: 'plan changed' });
    expect(asApiError(new Error('boom'))).toMatchObject({ code: 'internal', message: 'boom' });
  });
});
