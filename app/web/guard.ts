/**
 * The checks every request to `serve` passes before anything else happens. The server listens on
 * 127.0.0.1 only; these checks are the second wall:
 * - remote address must be loopback (a proxy or a future bind change cannot expose the engine);
 * - Host must be exactly 127.0.0.1:PORT or localhost:PORT — a page on evil.example that rebinds its
 *   DNS name to 127.0.0.1 still sends `Host: evil.example:PORT` (DNS rebinding);
 * - Origin, when the browser sends one, must be this server — other sites get no answer at all,
 *   and no CORS header is ever sent, so their scripts could not read one anyway;
 * - the API wants `Authorization: Bearer <token>`, a random 32-byte token made per start and handed
 *   to the user in the printed URL's fragment (fragments never reach a server or a Referer).
 */
import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

export function isLoopbackAddress(addr: string | undefined): boolean {
  if (!addr) return false;
  const a = addr.startsWith('::ffff:') ? addr.slice(7) : addr;
  if (a === '::1') return true;
  return isIP(a) === 4 && a.startsWith('127.');
}

export function allowedOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
}

export function isAllowedHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const h = host.toLowerCase();
  return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
}

/** An absent Origin is fine (same-origin GETs, curl); a present one must be ours. "null" is not. */
export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return allowedOrigins(port).includes(origin.toLowerCase());
}

export function hasValidToken(authorization: string | undefined, token: string): boolean {
  if (!authorization || !authorization.startsWith('Bearer ')) return false;
  const given = Buffer.from(authorization.slice('Bearer '.length).trim(), 'utf8');
  const want = Buffer.from(token, 'utf8');
  return given.length === want.length && timingSafeEqual(given, want);
}

export interface RequestFacts {
  remoteAddress: string | undefined;
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
}

/** `null` when the request may go on; otherwise the status and a short reason. */
export function checkRequest(
  r: RequestFacts,
  port: number,
): { status: 403; reason: string } | null {
  if (!isLoopbackAddress(r.remoteAddress))
    return { status: 403, reason: 'only loopback clients are served' };
  if (!isAllowedHost(r.host, port)) return { status: 403, reason: 'unexpected Host header' };
  if (!isAllowedOrigin(r.origin, port))
    return { status: 403, reason: 'cross-origin requests are refused' };
  if (r.secFetchSite === 'cross-site')
    return { status: 403, reason: 'cross-site requests are refused' };
  return null;
}
