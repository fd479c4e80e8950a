// Reproduces sandbox-creation failures on a real containerd 1.6 + runc + CNI plugins, through
// cni-doctor's own CRI client. Needs root and the Debian packages named by preflight.ts.
// Run: npx vitest run --config e2e/lab/vitest.lab.config.ts
import { existsSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeCriEndpoint } from '../../main/cri/client';
import { bridgeConflist, flannelConflist, truncated } from './cni-conf';
import { criDisabledV1ConfigToml } from './config-toml';
import { run } from './exec';
import { startLab, type Lab, type LabOptions, type TeardownReport } from './harness';
import { inSubnet } from './ipv4';
import { assertPreflight } from './preflight';

const timings: { scenario: string; ms: number; teardownMs: number; killed: number }[] = [];
const figures: Record<string, string> = {};

/** Runs a scenario on a fresh lab and always tears it down; teardown leaks fail the test. */
async function scenario(
  name: string,
  opts: Omit<LabOptions, 'name'>,
  body: (lab: Lab) => Promise<void>,
): Promise<TeardownReport> {
  const started = performance.now();
  const lab = await startLab({ name, ...opts });
  let failure: unknown;
  try {
    await body(lab);
  } catch (e) {
    failure = e;
  }
  let report: TeardownReport | undefined;
  try {
    report = await lab.stop();
  } catch (e) {
    failure = failure
      ? new AggregateError([failure, e], `${name}: scenario and teardown both failed`)
      : e;
  }
  if (failure) throw failure;
  if (!report) throw new Error('unreachable: no teardown report');
  timings.push({
    scenario: name,
    ms: performance.now() - started,
    teardownMs: report.ms,
    killed: report.killed.length,
  });
  return report;
}

const network = (lab: Lab, name: string, n: number): string =>
  bridgeConflist({
    name,
    bridge: lab.bridgeName(n),
    subnet: lab.subnet(n),
    dataDir: lab.paths.ipamDir,
  });

const condition = (s: { conditions: { type: string; status: boolean }[] }, type: string) =>
  s.conditions.find((c) => c.type === type);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};

beforeAll(() => {
  assertPreflight(); // fails (never skips) with the apt-get command when something is missing
});

afterAll(() => {
  console.log('\nlab scenario timings (ms, incl. start + teardown):');
  for (const t of timings)
    console.log(
      `  ${t.scenario.padEnd(34)} ${t.ms.toFixed(0).padStart(6)}  (teardown ${t.teardownMs.toFixed(0)}, force-killed ${t.killed})`,
    );
  for (const [k, v] of Object.entries(figures)) console.log(`  ${k}: ${v}`);
});

describe('containerd lab', () => {
  it('1: empty conf dir -> NetworkReady=false, "no network config found"', async () => {
    await scenario('empty-conf-dir', {}, async (lab) => {
      const entry = await lab.probe();
      expect(entry.error).toBeNull();
      expect(entry.api).toBe('runtime.v1');
      expect(condition(entry.status ?? { conditions: [] }, 'NetworkReady')?.status).toBe(false);
      expect(entry.status?.info.lastCNILoadStatus).toContain('no network config found');
      expect(entry.status?.info.lastCNILoadStatus).toContain(lab.confDir);

      const pod = await lab.runPod('no-cni');
      expect(pod.ok).toBe(false);
      if (!pod.ok) expect(pod.error.message).toContain('cni plugin not initialized');
    });
  });

  it('2: truncated conflist sorting first -> NetworkReady=false, "invalid cni config"', async () => {
    await scenario('truncated-conflist-first', {}, async (lab) => {
      lab.writeConf('00-broken.conflist', truncated(network(lab, 'broken', 1)));
      lab.writeConf('10-good.conflist', network(lab, 'good', 2));
      const status = await lab.waitForStatus((s) =>
        (s.info.lastCNILoadStatus ?? '').includes('00-broken.conflist'),
      );
      expect(condition(status, 'NetworkReady')?.status).toBe(false);
      expect(status.info.lastCNILoadStatus).toContain('invalid cni config');
    });
  });

  it('3: runtime default 10-containerd-net sorts before the cluster network -> pod IP from the wrong subnet', async () => {
    await scenario('runtime-default-shadows-cluster', {}, async (lab) => {
      const subnetA = lab.subnet(1);
      const subnetB = lab.subnet(2);
      lab.writeConf('10-containerd-net.conflist', network(lab, 'containerd-net', 1));
      lab.writeConf('10-kindnet.conflist', network(lab, 'kindnet', 2));
      const status = await lab.waitForStatus((s) =>
        (s.info.cniconfig ?? '').includes('containerd-net'),
      );
      // The node looks healthy: nothing in Status says the cluster network is ignored.
      expect(condition(status, 'NetworkReady')?.status).toBe(true);
      expect(status.info.cniconfig).not.toContain('kindnet');

      const pod = await lab.runPod('shadowed');
      expect(pod.ok).toBe(true);
      if (pod.ok) {
        expect(inSubnet(pod.ip, subnetA)).toBe(true);
        expect(inSubnet(pod.ip, subnetB)).toBe(false);
      }
    });
  });

  it('4: config naming a plugin missing from bin_dir -> RunPodSandbox "failed to find plugin"', async () => {
    const report = await scenario('missing-plugin-binary', {}, async (lab) => {
      lab.writeConf('10-flannel.conflist', flannelConflist());
      const status = await lab.waitForStatus((s) => (s.info.cniconfig ?? '').includes('cbr0'));
      // Status is green: binaries are only looked up at pod creation.
      expect(condition(status, 'NetworkReady')?.status).toBe(true);

      const pod = await lab.runPod('needs-flannel');
      expect(pod.ok).toBe(false);
      if (!pod.ok) {
        expect(pod.error.message).toContain('failed to find plugin "flannel"');
        expect(pod.error.message).toContain(lab.binDir);
      }
      const sandboxes = (await lab.probe({ listSandboxes: true })).sandboxes ?? [];
      expect(sandboxes.map((s) => s.state)).toEqual(['SANDBOX_NOTREADY']);
    });
    // The stuck sandbox could only be removed after teardown repaired the CNI config.
    expect(report.removedSandboxes).toHaveLength(1);
    expect(report.sandboxFailures).toEqual([]);
  });

  it('5: version-1 config with disabled_plugins = ["cri"] -> CRI code 12 unknown service', async () => {
    await scenario(
      'cri-disabled-v1-config',
      { configToml: criDisabledV1ConfigToml },
      async (lab) => {
        const entry = await lab.probe();
        expect(entry).toEqual({
          endpoint: lab.endpoint,
          api: null,
          error: { code: 12, message: 'unknown service runtime.v1.RuntimeService' },
        });
        const plugins = await run('ctr', ['-a', lab.socket, 'plugins', 'ls']);
        expect(plugins.code).toBe(0);
        expect(plugins.stdout).not.toMatch(/io\.containerd\.grpc\.v1\s+cri\b/);
        expect(plugins.stdout).toMatch(/io\.containerd\.grpc\.v1\s+images\b/);
      },
    );
  });

  it('6: containerd killed, socket file left behind -> probe code 14', async () => {
    await scenario('stale-socket', {}, async (lab) => {
      await lab.kill('SIGKILL');
      expect(lab.pid).toBeNull();
      expect(existsSync(lab.socket) && statSync(lab.socket).isSocket()).toBe(true);
      const started = performance.now();
      const entry = await probeCriEndpoint(lab.endpoint);
      figures['stale-socket probe'] = `${(performance.now() - started).toFixed(1)} ms`;
      expect(entry.api).toBeNull();
      expect(entry.error?.code).toBe(14);
      expect(entry.error?.message).toContain('ECONNREFUSED');

      await lab.restart();
      expect((await lab.probe()).error).toBeNull();
    });
  });

  it('7: healthy -> pod IP in the configured subnet; probe latency vs ctr version', async () => {
    await scenario('healthy', {}, async (lab) => {
      const subnet = lab.subnet(3);
      lab.writeConf('10-lab.conflist', network(lab, 'labnet', 3));
      const status = await lab.waitForStatus((s) => s.info.lastCNILoadStatus === 'OK');
      expect(status.conditions.every((c) => c.status)).toBe(true);

      const pod = await lab.runPod('healthy');
      expect(pod.ok).toBe(true);
      if (pod.ok) expect(inSubnet(pod.ip, subnet)).toBe(true);
      figures['RunPodSandbox + PodSandboxStatus'] = `${pod.ms.toFixed(1)} ms`;

      const target = lab.scanTarget();
      expect(target).toMatchObject({
        configPath: lab.configPath,
        socket: lab.socket,
        confDir: lab.confDir,
        binDir: '/usr/lib/cni',
      });
      expect(target.pid).toBeGreaterThan(0);

      const probeMs: number[] = [];
      for (let i = 0; i < 10; i++) {
        const t = performance.now();
        const entry = await probeCriEndpoint(lab.endpoint, { listSandboxes: true });
        probeMs.push(performance.now() - t);
        expect(entry.error).toBeNull();
        expect(entry.sandboxes).toHaveLength(1);
      }
      const ctrMs: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await run('ctr', ['-a', lab.socket, 'version']);
        expect(r.code).toBe(0);
        ctrMs.push(r.ms);
      }
      figures['probeCriEndpoint median (10 runs, Version+Status verbose+ListPodSandbox)'] =
        `${median(probeMs).toFixed(1)} ms (min ${Math.min(...probeMs).toFixed(1)}, max ${Math.max(...probeMs).toFixed(1)})`;
      figures['ctr -a <sock> version'] =
        `first ${ctrMs[0]?.toFixed(1)} ms, median of 5 ${median(ctrMs).toFixed(1)} ms`;
    });
  });
});
