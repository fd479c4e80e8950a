import { describe, expect, it } from 'vitest';
import { BundleHost } from '../host/bundle-host';
import { BUNDLE_FORMAT } from './manifest';

describe('BundleHost.fromMemory', () => {
  const host = BundleHost.fromMemory(
    'live node',
    {
      format: BUNDLE_FORMAT,
      host: { os: 'windows', hostname: 'w1' },
      paths: {
        'C:\\etc\\cni\\net.d': { type: 'dir', entries: ['10-antrea.conflist'] },
        'C:\\k\\kubelet.log': { type: 'file', truncated: true, size: 100 },
        'C:\\opt\\cni\\bin': { type: 'missing' },
      },
      pipes: ['cnisock'],
    },
    new Map([
      ['C:\\etc\\cni\\net.d\\10-antrea.conflist', Buffer.from('{"x":1}')],
      ['C:\\k\\kubelet.log', Buffer.from('0123456789')],
    ]),
  );

  it('answers like a recorded bundle: case-insensitive paths, listings, missing vs unrecorded', async () => {
    expect(await host.readFile('c:/ETC/cni/net.d/10-antrea.conflist')).toMatchObject({
      ok: true,
      truncated: false,
    });
    expect(await host.listDir('C:\\etc\\cni\\net.d')).toEqual({
      ok: true,
      entries: ['10-antrea.conflist'],
    });
    expect(await host.stat('C:\\opt\\cni\\bin')).toMatchObject({ ok: false, error: 'ENOENT' });
    expect(await host.stat('C:\\nowhere')).toMatchObject({ ok: false, error: 'UNRECORDED' });
    expect(await host.pipes()).toEqual({ known: true, value: ['cnisock'] });
  });

  it('keeps the recorded size and truncation of a partly read file, and serves tails', async () => {
    const r = await host.readFile('C:\\k\\kubelet.log');
    expect(r).toMatchObject({ ok: true, size: 100, truncated: true });
    const chunks: Uint8Array[] = [];
    for await (const c of host.streamFile('C:\\k\\kubelet.log', { tailBytes: 3 })) chunks.push(c);
    expect(Buffer.concat(chunks).toString()).toBe('789');
  });
});
