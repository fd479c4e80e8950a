import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BundleHost } from '../host/bundle-host';
import type { Host, VersionHints } from '../host/host';
import { collectSnapshot } from './snapshot';

const BUNDLE = fileURLToPath(
  new URL('../../fixtures/linux/containerd-net-shadows-flannel', import.meta.url),
);

const CRI_DISABLED = fileURLToPath(
  new URL('../../fixtures/linux/docker-containerd-io-cri-disabled', import.meta.url),
);

/** The host's calls in the order the engine made them; `criLast` as the host says. */
function recorded(
  inner: Host,
  criLast: boolean,
): { host: Host; calls: string[]; versionsAsked: string[][] } {
  const calls: string[] = [];
  const versionsAsked: string[][] = [];
  const host = new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'criLast') return criLast;
      const v: unknown = Reflect.get(target, key, receiver);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        calls.push(String(key));
        if (key === 'versions')
          versionsAsked.push((args[0] as VersionHints).binaries.map((b) => b.component));
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { host, calls, versionsAsked };
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

describe("a running runtime's version, where CRI comes last (a remote node)", () => {
  it('is its CRI Version answer: its binary is not run on the node', async () => {
    const { host, versionsAsked } = recorded(await BundleHost.open(BUNDLE), true);
    const snap = await collectSnapshot(host);
    expect(snap.cri?.[0]?.version?.runtimeName).toBe('containerd');
    // Asked of the host: the kubelet's binary only (a bundle answers with all it recorded).
    expect(versionsAsked).toEqual([['kubelet']]);
  });

  it("is its binary's --version, asked after CRI, when CRI gives no answer (the cri plugin disabled)", async () => {
    const { host, calls, versionsAsked } = recorded(await BundleHost.open(CRI_DISABLED), true);
    const snap = await collectSnapshot(host);
    expect(snap.cri?.[0]?.error?.code).toBe(12);
    expect(versionsAsked).toEqual([['kubelet'], ['containerd']]);
    expect(calls.lastIndexOf('versions')).toBeGreaterThan(calls.indexOf('cri'));
    expect(snap.containerd.known && snap.containerd.value?.version).toBe('1.6.33');
  });

  it('is still run beside the files where CRI has its own connection (a local node)', async () => {
    const { host, versionsAsked } = recorded(await BundleHost.open(BUNDLE), false);
    const snap = await collectSnapshot(host);
    expect(versionsAsked).toEqual([['containerd', 'kubelet']]);
    expect(snap.containerd.known && snap.containerd.value?.version).toBe('1.7.20');
  });
});
