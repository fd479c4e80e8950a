// The doctor diagnoses each lab scenario by scanning the live machine — finding the lab's
// containerd through its process and --config, and the kubelet's endpoint through a kubelet
// stand-in's flags — and a bundle collected from the node gives the same findings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeConflist, flannelConflist, truncated } from './cni-conf';
import { criDisabledV1ConfigToml } from './config-toml';
import type { Lab } from './harness';
import { withLabNode } from './with-node';
import { inSubnet } from './ipv4';
import { assertPreflight } from './preflight';
import { findingsOf, ruleStatus, scanCollectedBundle, scanLive, signature } from './doctor-scan';
import type { ScanResult } from '../../main/engine/scan';

const latencies: number[] = [];

/** Scans live and through a collected bundle; asserts both agree and returns the live result. */
async function diagnose(): Promise<ScanResult> {
  const t = performance.now();
  const live = await scanLive();
  latencies.push(performance.now() - t);
  const replay = await scanCollectedBundle();
  expect(signature(replay)).toEqual(signature(live));
  return live;
}

const network = (lab: Lab, name: string, n: number): string =>
  bridgeConflist({
    name,
    bridge: lab.bridgeName(n),
    subnet: lab.subnet(n),
    dataDir: lab.paths.ipamDir,
  });

beforeAll(() => assertPreflight());

afterAll(() => {
  const s = [...latencies].sort((a, b) => a - b);
  if (s.length)
    console.log(
      `\nlive scan with CRI on the lab node: median ${s[Math.floor(s.length / 2)]?.toFixed(0)} ms over ${s.length} scans (min ${s[0]?.toFixed(0)}, max ${s[s.length - 1]?.toFixed(0)})`,
    );
});

describe('the doctor on a real containerd', () => {
  it('1: empty conf dir → cni.conf.none + cri.network.not-ready', async () => {
    await withLabNode('doctor-empty', {}, async (lab) => {
      await lab.waitForStatus((s) =>
        (s.info.lastCNILoadStatus ?? '').includes('no network config found'),
      );
      const r = await diagnose();
      expect(r.snapshot.containerd.known && r.snapshot.containerd.value?.configPath).toBe(
        lab.configPath,
      );
      expect(findingsOf(r, 'cni.conf.none')).toHaveLength(1);
      const nr = findingsOf(r, 'cri.network.not-ready');
      expect(nr).toHaveLength(1);
      expect(JSON.stringify(nr[0]?.evidence)).toContain('no network config found');
      expect(nr[0]?.relatedFindings).toContain(findingsOf(r, 'cni.conf.none')[0]?.id);
    });
  });

  it('2: truncated config sorting first → cni.conf.invalid (error) + not-ready', async () => {
    await withLabNode('doctor-truncated', {}, async (lab) => {
      lab.writeConf('00-broken.conflist', truncated(network(lab, 'broken', 1)));
      lab.writeConf('10-good.conflist', network(lab, 'good', 2));
      await lab.waitForStatus((s) =>
        (s.info.lastCNILoadStatus ?? '').includes('00-broken.conflist'),
      );
      const r = await diagnose();
      const invalid = findingsOf(r, 'cni.conf.invalid');
      expect(invalid.map((f) => f.severity)).toEqual(['error']);
      expect(invalid[0]?.title).toContain('00-broken.conflist');
      expect(findingsOf(r, 'cri.network.not-ready')).toHaveLength(1);
    });
  });

  it('3: runtime default shadows the cluster config → cni.conf.shadowed-by-default; a real pod gets the default subnet', async () => {
    await withLabNode('doctor-shadowed', {}, async (lab) => {
      lab.writeConf('10-containerd-net.conflist', network(lab, 'containerd-net', 1));
      lab.writeConf('10-kindnet.conflist', network(lab, 'kindnet', 2));
      await lab.waitForStatus((s) => (s.info.cniconfig ?? '').includes('containerd-net'));
      const r = await diagnose();
      const f = findingsOf(r, 'cni.conf.shadowed-by-default');
      expect(f).toHaveLength(1);
      expect(f[0]?.repairs.length).toBeGreaterThan(0);
      expect(ruleStatus(r, 'cri.network.not-ready')).toBe('pass');
      const pod = await lab.runPod('shadowed');
      expect(pod.ok).toBe(true);
      if (pod.ok) expect(inSubnet(pod.ip, lab.subnet(1))).toBe(true);
    });
  });

  it('4: a plugin missing from the bin dir → cni.plugin.missing; a real pod fails with "failed to find plugin"', async () => {
    await withLabNode('doctor-missing-plugin', {}, async (lab) => {
      lab.writeConf('10-flannel.conflist', flannelConflist());
      await lab.waitForStatus((s) => (s.info.cniconfig ?? '').includes('cbr0'));
      const r = await diagnose();
      const f = findingsOf(r, 'cni.plugin.missing');
      expect(f).toHaveLength(1);
      expect(f[0]?.severity).toBe('error');
      expect(f[0]?.title).toContain('flannel');
      const pod = await lab.runPod('needs-flannel');
      expect(pod.ok).toBe(false);
      if (!pod.ok) expect(pod.error.message).toContain('failed to find plugin "flannel"');
    });
  });

  it('5: disabled_plugins = ["cri"] in a version 1 config → containerd.cri.disabled', async () => {
    await withLabNode('doctor-cri-disabled', { configToml: criDisabledV1ConfigToml }, async () => {
      const r = await diagnose();
      const f = findingsOf(r, 'containerd.cri.disabled');
      expect(f).toHaveLength(1);
      const ev = JSON.stringify(f[0]?.evidence);
      expect(ev).toContain('disabled_plugins');
      expect(ev).toContain('unknown service runtime.v1.RuntimeService');
      expect(f[0]?.repairs[0]?.id).toContain('containerd.cri.disabled');
      expect(ruleStatus(r, 'cri.endpoint.unreachable')).toBe('pass');
    });
  });

  it('6: a stale socket with nothing listening → cri.endpoint.unreachable', async () => {
    await withLabNode('doctor-stale-socket', {}, async (lab) => {
      await lab.kill('SIGKILL');
      const r = await diagnose();
      const f = findingsOf(r, 'cri.endpoint.unreachable');
      expect(f).toHaveLength(1);
      expect(f[0]?.title).toContain(lab.socket);
      expect(JSON.stringify(f[0]?.evidence)).toContain('code 14');
      await lab.restart();
    });
  });

  it('7: a healthy node → no finding at warning or above, and a real pod gets an IP', async () => {
    await withLabNode('doctor-healthy', {}, async (lab) => {
      lab.writeConf('10-lab.conflist', network(lab, 'labnet', 3));
      await lab.waitForStatus((s) => s.info.lastCNILoadStatus === 'OK');
      const r = await diagnose();
      expect(r.report.findings.filter((f) => f.severity !== 'info').map((f) => f.id)).toEqual([]);
      expect(ruleStatus(r, 'cri.network.not-ready')).toBe('pass');
      const pod = await lab.runPod('healthy');
      expect(pod.ok).toBe(true);
      if (pod.ok) expect(inSubnet(pod.ip, lab.subnet(3))).toBe(true);
    });
  });
});
