import { describe, expect, it } from 'vitest';
import { scanMemoryNode } from '../host/memory-node.testutil';
import { loaderProfile } from './cni-loader-profile';

describe('loaderProfile', () => {
  it('maps runtime releases to the loader they pin', () => {
    const id = (r: 'containerd' | 'crio', v: string) => loaderProfile(r, v, 'test').id;
    expect(id('containerd', 'v1.6.20')).toBe('containerd-1.6');
    expect(id('containerd', '1.7.27-0ubuntu1')).toBe('containerd-1.7');
    expect(id('containerd', 'v1.7.23-k3s2')).toBe('containerd-1.7');
    expect(id('containerd', 'v2.0.5')).toBe('containerd-2.0');
    expect(id('containerd', '2.1.3')).toBe('containerd-2.1');
    expect(id('containerd', 'v2.3.1')).toBe('containerd-2.2');
    expect(id('crio', '1.29.1')).toBe('crio-1.30');
    expect(id('crio', '1.31.0')).toBe('crio-1.31');
    expect(id('crio', '1.32.4')).toBe('crio-1.32');
    expect(id('crio', '1.34.0')).toBe('crio-1.33');
    expect(id('crio', '1.36.0')).toBe('crio-1.35');
  });

  it('assumes the newest loader when the version is unknown, and says so', () => {
    const p = loaderProfile('containerd', undefined, undefined);
    expect(p.id).toBe('containerd-2.2');
    expect(p.runtimeVersion).toBeUndefined();
    expect(p.note).toMatch(/version unknown: assumed the containerd 2\.2\+ loader/);
  });
});

/** A calico conflist with "disableCheck": "true": libcni v1.1 refuses it, v1.2+ accepts it. */
async function scanWith(
  versions: Record<string, string> | undefined,
  cri?: Parameters<typeof scanMemoryNode>[0]['cri'],
) {
  return scanMemoryNode({
    running: ['containerd'],
    ...(versions && { versions }),
    ...(cri && { cri }),
    files: {
      '/etc/containerd/config.toml': 'version = 2\n',
      '/etc/cni/net.d/10-calico.conflist': JSON.stringify({
        name: 'k8s-pod-network',
        cniVersion: '0.3.1',
        disableCheck: 'true',
        plugins: [{ type: 'calico', ipam: { type: 'calico-ipam' } }],
      }),
    },
    paths: {
      '/etc/cni/net.d': { type: 'dir', entries: ['10-calico.conflist'] },
      '/opt/cni/bin': { type: 'dir', entries: ['calico', 'calico-ipam', 'loopback'] },
    },
  });
}

describe('the runtime version is an input of the load model', () => {
  it('judges the conf dir with the loader of the containerd release found, and names it', async () => {
    const old = await scanWith({ containerd: 'v1.7.27' });
    const invalid = old.report.checks.find((c) => c.rule === 'cni.conf.invalid');
    expect(invalid?.status).toBe('fail');
    expect(old.report.summary?.runtimes[0]?.cniLoader).toMatchObject({
      profile: 'containerd-1.7',
      loader: 'go-cni v1.1.9 + libcni v1.1.2',
      assumed: false,
    });

    const recent = await scanWith({ containerd: 'v2.1.3' });
    expect(recent.report.checks.find((c) => c.rule === 'cni.conf.invalid')?.status).toBe('pass');
    expect(recent.report.summary?.cniInUse?.file).toBe('10-calico.conflist');
    expect(recent.report.summary?.runtimes[0]?.cniLoader?.profile).toBe('containerd-2.1');
  });

  it('says which loader it assumed when the version is unknown', async () => {
    const s = await scanWith(undefined);
    expect(s.report.summary?.runtimes[0]?.cniLoader).toMatchObject({ assumed: true });
    expect(s.report.summary?.runtimes[0]?.cniLoader?.note).toMatch(/assumed/);
  });
});

describe("the running daemon's version, where the binary was not run (a remote scan)", () => {
  const endpoint = 'unix:///run/containerd/containerd.sock';
  it("takes containerd's own Version service when CRI is disabled, and names it", async () => {
    const s = await scanWith(undefined, [
      {
        endpoint,
        api: null,
        containerdVersion: { version: 'v1.7.27', revision: 'abc' },
        error: { code: 12, message: 'unknown service runtime.v1.RuntimeService' },
      },
    ]);
    const rt = s.report.summary?.runtimes[0];
    expect(rt?.version).toBe('v1.7.27');
    expect(rt?.cniLoader).toMatchObject({ profile: 'containerd-1.7', assumed: false });
    expect(rt?.cniLoader?.note).toMatch(/from containerd's Version service$/);
    expect(s.report.checks.find((c) => c.rule === 'cni.conf.invalid')?.status).toBe('fail');
  });

  it("prefers the binary's answer, then CRI's, when they are there", async () => {
    const entry = {
      endpoint,
      api: 'runtime.v1' as const,
      version: {
        version: '0.1.0',
        runtimeName: 'containerd',
        runtimeVersion: 'v2.1.3',
        runtimeApiVersion: 'v1',
      },
      containerdVersion: { version: 'v1.7.27', revision: 'abc' },
      error: null,
    };
    const viaCri = (await scanWith(undefined, [entry])).report.summary?.runtimes[0];
    expect(viaCri?.cniLoader?.note).toMatch(
      /for containerd v2\.1\.3, from the CRI Version answer$/,
    );
    const viaBinary = (await scanWith({ containerd: 'v1.6.20' }, [entry])).report.summary
      ?.runtimes[0];
    expect(viaBinary?.cniLoader?.note).toMatch(/from the runtime binary$/);
  });
});
