// One-click repairs on a real containerd: for each scenario the doctor's live scan finds the
// problem, `fix --yes` (the repair engine, with a ProcessServiceManager restarting the lab's
// containerd) repairs it, the finding is gone, a real RunPodSandbox gets an IP from the cluster's
// config, and undo puts every touched file back byte for byte. A repair whose restarted
// containerd does not come back is rolled back automatically.
// Run (root): npx vitest run --config e2e/lab/vitest.lab.config.ts e2e/lab/repairs.lab.test.ts
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyRepair,
  localEnvironment,
  ProcessServiceManager,
  undoEntry,
  type RepairEnvironment,
} from '../../main/repairs';
import type { Verification } from '../../shared/model/repair';
import { bridgeConflist } from './cni-conf';
import { criDisabledV1ConfigToml, labConfigToml } from './config-toml';
import { findingsOf, scanLive } from './doctor-scan';
import type { Lab, LabOptions } from './harness';
import { withLabNode } from './with-node';
import { inSubnet } from './ipv4';
import type { LabPaths } from './paths';
import { assertPreflight } from './preflight';

const stateDirs: string[] = [];
const timings: { scenario: string; ms: number }[] = [];

beforeAll(() => assertPreflight());
afterAll(() => {
  for (const d of stateDirs) rmSync(d, { recursive: true, force: true });
  console.log('\nrepair lab timings (ms, incl. lab start + teardown):');
  for (const t of timings) console.log(`  ${t.scenario.padEnd(32)} ${t.ms.toFixed(0).padStart(6)}`);
});

async function withLab(
  name: string,
  opts: Omit<LabOptions, 'name'>,
  body: (lab: Lab) => Promise<void>,
): Promise<void> {
  const started = performance.now();
  await withLabNode(name, opts, body);
  timings.push({ scenario: name, ms: performance.now() - started });
}

/** The repair engine on this machine, with the lab's containerd as the "containerd" service. */
function labEnvironment(
  lab: Lab,
  start: () => Promise<void> = () => lab.restart(),
): RepairEnvironment & { services: ProcessServiceManager } {
  const stateDir = mkdtempSync(join(tmpdir(), 'cnd-repair-state-'));
  stateDirs.push(stateDir);
  const services = new ProcessServiceManager({
    containerd: { stop: () => lab.kill('SIGTERM'), start, isActive: () => lab.pid !== null },
  });
  return { ...localEnvironment({ stateDir, services, isElevated: () => true }), services };
}

const network = (lab: Lab, name: string, n: number): string =>
  bridgeConflist({
    name,
    bridge: lab.bridgeName(n),
    subnet: lab.subnet(n),
    dataDir: lab.paths.ipamDir,
  });

/** Every file a repair could touch in the lab, with its exact bytes. */
function labFiles(lab: Lab): Record<string, string> {
  const out: Record<string, string> = { 'config.toml': readFileSync(lab.configPath, 'base64') };
  for (const f of lab.listConf()) out[`net.d/${f}`] = readFileSync(join(lab.confDir, f), 'base64');
  return out;
}

/** Removes the lab's pods (a pod made under the repaired config must go before undo breaks it). */
async function removePods(lab: Lab): Promise<void> {
  for (const s of await lab.cri().listPodSandbox()) {
    await lab.cri().stopPodSandbox(s.id);
    await lab.cri().removePodSandbox(s.id);
  }
}

async function fixAndCheck(
  lab: Lab,
  env: RepairEnvironment,
  rule: string,
  subnet: string,
): Promise<{ entry: string; verification: Verification | null }> {
  const before = await scanLive();
  const f = findingsOf(before, rule);
  expect(
    f,
    `${rule} not found; findings: ${before.report.findings.map((x) => x.id).join(', ')}`,
  ).toHaveLength(1);
  const repairId = f[0]?.repairs[0]?.id as string;
  expect(repairId).toBeTruthy();

  const r = await applyRepair(env, repairId);
  expect(r.status, r.reason).toBe('applied');
  expect(r.verification?.resolved).toBe(true);
  expect(findingsOf(await scanLive(), rule)).toEqual([]);

  // containerd picks up conf-dir renames by itself; wait until it has, then make a real pod.
  await lab.waitForStatus(
    (s) => s.info.lastCNILoadStatus === 'OK' && s.conditions.every((c) => c.status),
    10_000,
  );
  const pod = await lab.runPod(`fixed-${rule.replace(/[^a-z]/g, '')}`.slice(0, 40));
  expect(pod.ok, pod.ok ? '' : pod.error.message).toBe(true);
  if (pod.ok) expect(inSubnet(pod.ip, subnet), `${pod.ip} not in ${subnet}`).toBe(true);
  await removePods(lab);
  return { entry: r.entry as string, verification: r.verification };
}

describe('repairs on a real containerd', () => {
  it('a runtime default shadowing the cluster config: disable it, pods get the cluster subnet, undo', async () => {
    await withLab('repair-shadowed', {}, async (lab) => {
      lab.writeConf('10-containerd-net.conflist', network(lab, 'containerd-net', 1));
      lab.writeConf('20-cluster.conflist', network(lab, 'cluster', 2));
      await lab.waitForStatus((s) => (s.info.cniconfig ?? '').includes('containerd-net'));
      const original = labFiles(lab);
      const env = labEnvironment(lab);
      const { entry } = await fixAndCheck(lab, env, 'cni.conf.shadowed-by-default', lab.subnet(2));
      expect(lab.listConf()).toEqual([
        '10-containerd-net.conflist.disabled',
        '20-cluster.conflist',
      ]);
      expect(env.services.restarts).toEqual([]); // a rename needs no restart: containerd reloads
      expect((await undoEntry(env, entry)).status).toBe('undone');
      expect(labFiles(lab)).toEqual(original);
    });
  });

  it('CRI disabled in a version 1 config: remove "cri", restart containerd, CRI answers, undo', async () => {
    await withLab(
      'repair-cri-disabled',
      { configToml: criDisabledV1ConfigToml, confDirFiles: {} },
      async (lab) => {
        lab.writeConf('10-cluster.conflist', network(lab, 'cluster', 3));
        expect((await lab.probe()).error?.code).toBe(12);
        const original = labFiles(lab);
        const env = labEnvironment(lab);
        const { entry, verification } = await fixAndCheck(
          lab,
          env,
          'containerd.cri.disabled',
          lab.subnet(3),
        );
        expect(env.services.restarts).toEqual(['containerd']);
        expect(verification?.cri).toEqual([
          { endpoint: lab.endpoint, ok: true, detail: 'answers runtime.v1' },
        ]);
        expect(readFileSync(lab.configPath, 'utf8').split('\n')[0]).toBe('disabled_plugins = []');
        expect((await undoEntry(env, entry)).status).toBe('undone');
        expect(labFiles(lab)).toEqual(original);
        expect(env.services.restarts).toEqual(['containerd', 'containerd']);
        expect((await lab.probe()).error?.code).toBe(12);
      },
    );
  });

  it('a plugin found only in another bin dir: point bin_dir there, restart, pods work, undo', async () => {
    const emptyBin = (p: LabPaths): string => join(p.dir, 'bin-empty');
    await withLab(
      'repair-bin-dir',
      { configToml: (p) => labConfigToml(p, { cniBinDir: emptyBin(p) }) },
      async (lab) => {
        lab.writeConf('10-cluster.conflist', network(lab, 'cluster', 4));
        const original = labFiles(lab);
        const env = labEnvironment(lab);
        const { entry } = await fixAndCheck(lab, env, 'cni.plugin.missing', lab.subnet(4));
        expect(readFileSync(lab.configPath, 'utf8')).toContain(
          `bin_dir = ${JSON.stringify(lab.binDir)}`,
        );
        expect((await undoEntry(env, entry)).status).toBe('undone');
        expect(labFiles(lab)).toEqual(original);
      },
    );
  });

  it('an empty conf dir with one disabled candidate: re-enable it, pods get its subnet, undo', async () => {
    await withLab('repair-conf-none', {}, async (lab) => {
      lab.writeConf('10-cluster.conflist.disabled', network(lab, 'cluster', 5));
      await lab.waitForStatus((s) =>
        (s.info.lastCNILoadStatus ?? '').includes('no network config found'),
      );
      const original = labFiles(lab);
      const env = labEnvironment(lab);
      const { entry, verification } = await fixAndCheck(lab, env, 'cni.conf.none', lab.subnet(5));
      // containerd reloaded on the rename by itself: verification saw NetworkReady turn true.
      expect(verification?.cri).toEqual([
        { endpoint: lab.endpoint, ok: true, detail: 'NetworkReady' },
      ]);
      expect(lab.listConf()).toEqual(['10-cluster.conflist']);
      expect((await undoEntry(env, entry)).status).toBe('undone');
      expect(labFiles(lab)).toEqual(original);
    });
  });

  it('a restarted containerd that does not come back is rolled back automatically', async () => {
    await withLab('repair-rollback', { configToml: criDisabledV1ConfigToml }, async (lab) => {
      lab.writeConf('10-cluster.conflist', network(lab, 'cluster', 6));
      const original = labFiles(lab);
      let starts = 0;
      // First start: containerd meets a config it refuses ("cri" is not a plugin URI in version 2).
      const env = labEnvironment(lab, async () => {
        starts++;
        if (starts === 1) {
          writeFileSync(
            lab.configPath,
            `version = 2\n${readFileSync(lab.configPath, 'utf8').replace('disabled_plugins = []', 'disabled_plugins = ["cri"]')}`,
          );
        }
        await lab.restart();
      });
      const before = await scanLive();
      const repairId = findingsOf(before, 'containerd.cri.disabled')[0]?.repairs[0]?.id as string;
      const r = await applyRepair(env, repairId);
      expect(r.status).toBe('rolled-back');
      expect(r.reason).toMatch(
        /Restart the containerd service\) failed: containerd exited during start/,
      );
      expect(r.reason).toMatch(/rolled back \(1 file\(s\) restored, containerd restarted\)/);
      expect(r.rollback?.conflicts).toHaveLength(1); // the broken file was kept before restoring
      expect(labFiles(lab)).toEqual(original);
      expect(lab.pid).not.toBeNull();
      expect((await lab.probe()).error?.code).toBe(12); // back as it was: running, CRI off
      expect(starts).toBe(2);
    });
  });
});
