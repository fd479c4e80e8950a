import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BundleHost } from '../host/bundle-host';
import type { Host } from '../host/host';
import { collectSnapshot } from './snapshot';

const BUNDLE = fileURLToPath(
  new URL('../../fixtures/linux/containerd-net-shadows-flannel', import.meta.url),
);

/** The host's calls in the order the engine made them; `criLast` as the host says. */
function recorded(inner: Host, criLast: boolean): { host: Host; calls: string[] } {
  const calls: string[] = [];
  const host = new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'criLast') return criLast;
      const v: unknown = Reflect.get(target, key, receiver);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { host, calls };
}

describe('when CRI is asked', () => {
  it('beside the CNI files by default: the runtimes answer over their own connection', async () => {
    const { host, calls } = recorded(await BundleHost.open(BUNDLE), false);
    const snap = await collectSnapshot(host);
    expect(snap.cri?.length).toBeGreaterThan(0);
    const cri = calls.indexOf('cri');
    expect(cri).toBeGreaterThan(0);
    // Files are still read after CRI was asked: the conf dirs come after it.
    expect(calls.slice(cri + 1).some((c) => c === 'listDir' || c === 'readFile')).toBe(true);
  });

  it("last when it ends the host's one connection to the node (criLast): nothing is read after it", async () => {
    const { host, calls } = recorded(await BundleHost.open(BUNDLE), true);
    const snap = await collectSnapshot(host);
    expect(snap.cri?.length).toBeGreaterThan(0);
    const cri = calls.indexOf('cri');
    expect(cri).toBeGreaterThan(0);
    const after = calls.slice(cri + 1).filter((c) => c !== 'criUnavailable');
    expect(after).toEqual([]);
  });
});
