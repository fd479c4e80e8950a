import { describe, expect, it } from 'vitest';
import {
  checkRequest,
  hasValidToken,
  isAllowedHost,
  isAllowedOrigin,
  isLoopbackAddress,
} from './guard';

const ok = {
  remoteAddress: '127.0.0.1',
  host: '127.0.0.1:8080',
  origin: undefined,
  secFetchSite: undefined,
};

describe('serve request guard', () => {
  it('accepts loopback peers only (IPv4 127/8, ::1, IPv4-mapped)', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])
      expect(isLoopbackAddress(a)).toBe(true);
    for (const a of [
      '10.0.0.5',
      '192.168.1.20',
      '::ffff:10.0.0.5',
      'fe80::1',
      '0.0.0.0',
      '',
      undefined,
      '127.0.0.1.evil',
    ])
      expect(isLoopbackAddress(a)).toBe(false);
  });

  it('refuses a request from a non-loopback remote address with 403', () => {
    expect(checkRequest({ ...ok, remoteAddress: '192.168.1.20' }, 8080)).toEqual({
      status: 403,
      reason: 'only loopback clients are served',
    });
    expect(checkRequest({ ...ok, remoteAddress: '::ffff:172.17.0.1' }, 8080)?.status).toBe(403);
    expect(checkRequest(ok, 8080)).toBeNull();
  });

  it('allows Host 127.0.0.1:PORT and localhost:PORT only (DNS rebinding)', () => {
    expect(isAllowedHost('127.0.0.1:8080', 8080)).toBe(true);
    expect(isAllowedHost('LOCALHOST:8080', 8080)).toBe(true);
    for (const h of [
      'evil.example:8080',
      '127.0.0.1',
      '127.0.0.1:8081',
      'localhost',
      '127.0.0.1:8080.evil.example',
      undefined,
    ])
      expect(isAllowedHost(h, 8080)).toBe(false);
    expect(checkRequest({ ...ok, host: 'rebind.evil.example:8080' }, 8080)?.status).toBe(403);
  });

  it('allows no Origin or our own; refuses foreign and "null" origins', () => {
    expect(isAllowedOrigin(undefined, 8080)).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:8080', 8080)).toBe(true);
    expect(isAllowedOrigin('http://localhost:8080', 8080)).toBe(true);
    for (const o of [
      'https://evil.example',
      'null',
      'http://127.0.0.1:9999',
      'https://127.0.0.1:8080',
      'file://',
    ])
      expect(isAllowedOrigin(o, 8080)).toBe(false);
    expect(checkRequest({ ...ok, origin: 'https://evil.example' }, 8080)?.status).toBe(403);
    expect(checkRequest({ ...ok, secFetchSite: 'cross-site' }, 8080)?.status).toBe(403);
  });

  it('checks the bearer token exactly', () => {
    const t = 'a'.repeat(43);
    expect(hasValidToken(`Bearer ${t}`, t)).toBe(true);
    for (const h of [
      undefined,
      '',
      t,
      `Basic ${t}`,
      `Bearer ${t}x`,
      `Bearer ${t.slice(1)}`,
      'Bearer ',
    ])
      expect(hasValidToken(h, t)).toBe(false);
  });
});
