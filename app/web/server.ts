/**
 * `cni-doctor serve`: the renderer and the DoctorApi over HTTP on 127.0.0.1 only.
 *
 *   GET  /, /assets/*            the built renderer (no token: it holds no secret)
 *   POST /api/<operation>        JSON body in, Envelope out            (Bearer token)
 *   POST /api/open-bundle        raw .tar.gz body, X-Bundle-Name header (Bearer token)
 *   POST /api/export-bundle      answers with the .tar.gz itself        (Bearer token)
 *   GET  /api/events             Server-Sent Events: progress, and `stale` when a watched node
 *                                changes after a scan (watch-session.ts) (Bearer token, read with fetch)
 *
 * Every request first passes guard.ts (loopback peer, Host, Origin); see there for why.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  HTTP_EVENTS_ROUTE,
  HTTP_ROUTES,
  HTTP_STATUS,
  type Envelope,
  type Operation,
} from '../../shared/api';
import type { Dispatcher } from '../shared-server/dispatch';
import { ApiError, toErrorEnvelope } from '../shared-server/errors';
import { REQUEST_LIMITS } from '../shared-server/limits';
import type { ProgressBus } from '../shared-server/progress';
import { parseJsonBody } from '../shared-server/validate';
import { readBody } from './body';
import { Gate } from '../shared-server/gate';
import { checkRequest, hasValidToken } from './guard';
import { BASE_HEADERS } from './headers';
import { readStatic } from './static-files';
import { encode, pickEncoding } from './compress';

export interface WebServerOptions {
  dispatcher: Dispatcher;
  progress: ProgressBus;
  /** 0 picks a free port. */
  port?: number;
  /** dist/renderer; without it only the API is served. */
  staticDir?: string;
  /** Tests pass a fixed token; otherwise 32 random bytes per start. */
  token?: string;
}

export interface WebServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const ROUTE_TO_OP = new Map<string, Operation>(
  Object.entries(HTTP_ROUTES).map(([op, route]) => [route, op as Operation]),
);

function send(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  type: string,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...BASE_HEADERS,
    'Content-Type': type,
    'Content-Length': String(Buffer.byteLength(body)),
    ...extra,
  });
  res.end(body);
}

/** JSON, compressed as the client accepts; `Vary` so no cache mixes the encodings. */
async function sendJson(req: IncomingMessage, res: ServerResponse, json: Buffer): Promise<void> {
  const enc = pickEncoding(header(req, 'accept-encoding'));
  const body = await encode(json, enc);
  send(res, 200, body, 'application/json; charset=utf-8', {
    Vary: 'Accept-Encoding',
    ...(body !== json && enc !== 'identity' && { 'Content-Encoding': enc }),
  });
}

function sendEnvelope<T>(res: ServerResponse, env: Envelope<T>): void {
  const status = env.ok ? 200 : HTTP_STATUS[env.error.code];
  send(
    res,
    status,
    JSON.stringify(env),
    'application/json; charset=utf-8',
    status === 413 ? { Connection: 'close' } : {},
  );
}

const sendError = (res: ServerResponse, e: unknown): void => sendEnvelope(res, toErrorEnvelope(e));

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const token = opts.token ?? randomBytes(32).toString('base64url');
  const streams = new Set<ServerResponse>();
  const uploads = new Gate(
    'bundle uploads',
    REQUEST_LIMITS.maxConcurrentUploads,
    REQUEST_LIMITS.maxQueuedUploads,
  );
  let port = 0;

  async function handleApi(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
  ): Promise<void> {
    if (!hasValidToken(header(req, 'authorization'), token))
      throw new ApiError(
        'unauthorized',
        'missing or wrong token: open the URL that `cni-doctor serve` printed',
      );

    if (pathname === HTTP_EVENTS_ROUTE) {
      if (req.method !== 'GET') throw new ApiError('bad-request', 'use GET');
      return openEventStream(res);
    }
    const op = ROUTE_TO_OP.get(pathname);
    if (!op) throw new ApiError('not-found', 'no such API route');
    if (req.method !== 'POST') throw new ApiError('bad-request', 'use POST');

    let payload: unknown;
    if (op === 'openBundle') {
      const type = (header(req, 'content-type') ?? '').split(';')[0]?.trim();
      if (type !== 'application/gzip' && type !== 'application/octet-stream')
        throw new ApiError('bad-request', 'upload the bundle as application/gzip');
      const name = header(req, 'x-bundle-name');
      let fileName: string;
      try {
        fileName = decodeURIComponent(name ?? '');
      } catch {
        throw new ApiError('bad-request', 'X-Bundle-Name is not valid');
      }
      // One gate around reading and unpacking: concurrent uploads cost bounded memory.
      return sendEnvelope(
        res,
        await uploads.run(async () =>
          opts.dispatcher(op, {
            kind: 'upload',
            fileName,
            data: await readBody(req, REQUEST_LIMITS.maxUploadBytes),
          }),
        ),
      );
    } else {
      // JSON only: a cross-site <form> cannot send this type without a CORS preflight we never answer.
      const type = (header(req, 'content-type') ?? '').split(';')[0]?.trim();
      if (type !== 'application/json') throw new ApiError('bad-request', 'send application/json');
      payload = parseJsonBody((await readBody(req, REQUEST_LIMITS.maxJsonBytes)).toString('utf8'));
    }

    // The browser left (tab closed, request aborted) before the answer: its work is cancelled
    // (a scan of a hung node must not hold its slot until the node's deadline).
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const env = await opts.dispatcher(op, payload, gone.signal);
    if (op === 'exportBundle' && env.ok) {
      const { fileName, data } = env.result as { fileName: string; data: Uint8Array };
      return send(res, 200, Buffer.from(data), 'application/gzip', {
        'Content-Disposition': `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
      });
    }
    if (env.ok) return sendJson(req, res, Buffer.from(JSON.stringify(env)));
    sendEnvelope(res, env);
  }

  function openEventStream(res: ServerResponse): void {
    res.writeHead(200, {
      ...BASE_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      Connection: 'keep-alive',
    });
    res.write(': connected\n\n');
    streams.add(res);
    const unsubscribe = opts.progress.subscribe((e) => {
      res.write(`event: progress\ndata: ${JSON.stringify(e)}\n\n`);
    });
    // A comment every 15 s keeps idle proxies and the browser from closing the stream.
    const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    res.on('close', () => {
      clearInterval(beat);
      unsubscribe();
      streams.delete(res);
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const denied = checkRequest(
      {
        remoteAddress: req.socket.remoteAddress,
        host: header(req, 'host'),
        origin: header(req, 'origin'),
        secFetchSite: header(req, 'sec-fetch-site'),
      },
      port,
    );
    if (denied)
      return sendEnvelope(res, { ok: false, error: { code: 'forbidden', message: denied.reason } });

    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    if (pathname.startsWith('/api/')) return handleApi(req, res, pathname);

    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, 'method not allowed', 'text/plain; charset=utf-8', {
        Allow: 'GET, HEAD',
      });
    const file = opts.staticDir ? await readStatic(opts.staticDir, pathname) : undefined;
    if (!file) return send(res, 404, 'not found', 'text/plain; charset=utf-8');
    send(
      res,
      200,
      req.method === 'HEAD' ? '' : file.data,
      file.type,
      req.method === 'HEAD' ? { 'Content-Length': String(file.data.length) } : {},
    );
  }

  const server: Server = createServer((req, res) => {
    const socket = req.socket;
    handle(req, res).catch((e: unknown) => {
      if (res.headersSent) return void res.destroy();
      // An oversized body may still be arriving: answer, then stop reading it.
      if (e instanceof ApiError && e.code === 'too-large') res.on('finish', () => socket.destroy());
      sendError(res, e);
    });
  });
  server.requestTimeout = 5 * 60_000;
  server.headersTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/#token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of streams) s.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
