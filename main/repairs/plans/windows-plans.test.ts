/**
 * The Windows plans end to end on the scenario nodes (fixtures/windows/scenarios.ts): scan over
 * the PowerShell session (a fake node that answers collect.ps1 and repair-step.ps1), preview,
 * apply with the preview token, verification by rescan, rollback, undo.
 */
import { describe, expect, it } from 'vitest';
import type { PowerShellStep, RestartServiceStep } from '../../../shared/model/repair';
import { scanHost } from '../../engine/scan';
import { repairTemplate } from '../../host/windows/build-repair-script';
import {
  decodePayload,
  FakeWindowsNode,
  type FakeNodeSpec,
} from '../../host/windows/testing/fake-node';
import { attachRepairs, type FakeRepairOptions } from '../../host/windows/testing/fake-repair';
import { WindowsHost } from '../../host/windows/windows-host';
import { criOf } from '../../../fixtures/windows/build-bundle';
import { WINDOWS_SCENARIOS, type WindowsScenario } from '../../../fixtures/windows/scenarios';
import { applyRepair } from '../apply';
import type { RepairEnvironment } from '../environment';
import { JournalStore } from '../journal/store';
import { LocalNodeFs, type NodeFs } from '../node-fs';
import { prepareRepair } from '../prepare';
import { scriptPowerShellRunner } from '../services/powershell';
import { WindowsServiceManager } from '../services/windows';
import { newStateDir } from '../testing/env';
import { undoEntry } from '../undo';
import { offer } from '../../rules/offers';
import { buildPlan } from './build';
import { IRREVERSIBLE_NOTE } from './hns-remove-endpoints';

const scenario = (name: string): WindowsScenario =>
  WINDOWS_SCENARIOS.find((s) => s.name === name) as WindowsScenario;

function windowsNode(
  s: WindowsScenario,
  change: (spec: FakeNodeSpec) => void = () => undefined,
  opts: FakeRepairOptions = {},
): FakeWindowsNode {
  const spec = structuredClone(s.node);
  change(spec);
  return attachRepairs(new FakeWindowsNode(spec), opts);
}

function windowsEnv(s: WindowsScenario, node: FakeWindowsNode): RepairEnvironment {
  const ps = scriptPowerShellRunner(node);
  return {
    scan: () => scanHost(new WindowsHost(node, { probeCri: criOf(s) })),
    // The HNS plans read no files; the node file system is this machine's, untouched.
    fs: new LocalNodeFs('/'),
    services: new WindowsServiceManager(ps),
    powershell: ps,
    isElevated: () => true,
    stateDir: newStateDir(),
    verifyTimeoutMs: 0,
    verifyIntervalMs: 10,
    serviceWaitMs: 200,
  };
}

/** The repair steps the node was asked to run, decoded from the exact texts it was handed. */
function repairCalls(node: FakeWindowsNode): { cmdlet: string; params: Record<string, unknown> }[] {
  return node.calls
    .filter((c) => c.script.includes('# cni-doctor: one allow-listed repair step'))
    .map((c) => decodePayload(c.script) as { cmdlet: string; params: Record<string, unknown> });
}

describe('hns-create-nat-network', () => {
  const s = scenario('nat-network-missing');
  const ID = 'hns.network.missing:hns-create-nat-network:nat';

  it('previews one New-HnsNetwork step with the config subnet and gateway, applies, verifies by rescan, and undo removes exactly that network', async () => {
    const node = windowsNode(s);
    const env = windowsEnv(s, node);
    const p = await prepareRepair(env, ID);
    if (!p.ok) throw new Error(p.reason);
    const step: PowerShellStep = {
      kind: 'powershell',
      cmdlet: 'New-HnsNetwork',
      params: {
        Type: 'NAT',
        Name: 'nat',
        AddressPrefix: '172.29.144.0/20',
        Gateway: '172.29.144.1',
      },
      needsElevation: true,
      description:
        'New-HnsNetwork -Type "NAT" -Name "nat" -AddressPrefix "172.29.144.0/20" -Gateway "172.29.144.1"',
    };
    expect(p.plan.steps).toEqual([step]);
    expect(p.preview.description).toEqual([step.description]);
    expect([p.preview.risk, p.preview.needsElevation, p.preview.diffs, p.preview.services]).toEqual(
      ['low', true, [], []],
    );
    expect(p.preview.notes).toContain('Undo removes exactly this network, by the ID HNS gave it.');

    const r = await applyRepair(env, ID, { previewToken: p.preview.previewToken });
    expect([r.status, r.verification?.resolved, r.verification?.newFindings]).toEqual([
      'applied',
      true,
      [],
    ]);
    const created = node.hns.networks.find((n) => (n as { Name: string }).Name === 'nat') as {
      ID: string;
      Type: string;
      Subnets: unknown;
    };
    expect(created).toMatchObject({
      Type: 'NAT',
      Subnets: [{ AddressPrefix: '172.29.144.0/20', GatewayAddress: '172.29.144.1' }],
    });
    // The text handed to the shell: the step as base64 data, then repair-step.ps1 unchanged.
    const text = node.calls.find((c) =>
      c.script.includes('# cni-doctor: one allow-listed repair step'),
    )?.script as string;
    expect(text.slice(text.indexOf('\n') + 1)).toBe(repairTemplate());
    expect(repairCalls(node)).toEqual([{ cmdlet: 'New-HnsNetwork', params: step.params }]);

    const entry = await new JournalStore(env.stateDir).load(r.entry as string);
    expect(entry?.steps[0]?.resultSha256).toBe(created.ID);
    const u = await undoEntry(env, r.entry as string);
    expect(u.status).toBe('undone');
    expect(node.hns.networks).toEqual([]);
    expect(repairCalls(node).at(-1)).toEqual({
      cmdlet: 'Remove-HnsNetwork',
      params: { Id: created.ID, Name: 'nat' },
    });
  });

  it('a New-HnsNetwork that HNS refuses is rolled back cleanly: nothing was created, nothing is removed', async () => {
    const node = windowsNode(s, () => undefined, {
      fail: (c) =>
        c === 'New-HnsNetwork'
          ? 'HNS POST /networks failed: An adapter was not found.  (error code 2151350278)'
          : undefined,
    });
    const env = windowsEnv(s, node);
    const r = await applyRepair(env, ID);
    expect(r.status).toBe('rolled-back');
    expect(r.reason).toMatch(/error code 2151350278/);
    expect(r.rollback?.errors).toEqual([]);
    expect(repairCalls(node).map((c) => c.cmdlet)).toEqual(['New-HnsNetwork']);
  });

  it("refuses a subnet with host bits set (setup scripts' 32 - prefix length bug) and one that overlaps another network", async () => {
    const hostBits = windowsNode(s, (spec) => {
      const files = spec.files as Record<string, string>;
      files['C:\\etc\\cni\\net.d\\0-containerd-nat.json'] = (
        files['C:\\etc\\cni\\net.d\\0-containerd-nat.json'] as string
      ).replace('172.29.144.0/20', '172.29.144.0/12');
    });
    const a = await prepareRepair(windowsEnv(s, hostBits), ID);
    expect(a.ok ? '' : a.reason).toMatch(/"172\.29\.144\.0\/12" has host bits set for \/12/);

    const overlap = windowsNode(s, (spec) => {
      spec.hns?.networks.push({
        ID: '11111111-2222-4333-8444-555555555555',
        Name: 'Default Switch',
        Type: 'ICS',
        Subnets: [{ AddressPrefix: '172.29.0.0/16' }],
      });
    });
    const b = await prepareRepair(windowsEnv(s, overlap), ID);
    expect(b.ok ? '' : b.reason).toMatch(
      /172\.29\.144\.0\/20 overlaps 172\.29\.0\.0\/16 of the HNS network "Default Switch"/,
    );
  });
});

describe('hns-remove-endpoints', () => {
  const s = scenario('stale-endpoints-created-not-attached');
  const ID = 'hns.endpoint.stale:hns-remove-endpoints';
  const STALE = '5e6298c2-4638-494e-be6b-ff6fef942c06';
  const REMOTE = '20c707a8-ac6d-4acb-aef8-8707781a4396';

  it('removes exactly the listed endpoints by ID, lists each in the preview, and says it cannot be undone', async () => {
    const node = windowsNode(s);
    const env = windowsEnv(s, node);
    const p = await prepareRepair(env, ID);
    if (!p.ok) throw new Error(p.reason);
    expect(p.plan.steps).toEqual([
      {
        kind: 'powershell',
        cmdlet: 'Remove-HnsEndpoint',
        params: { Id: [STALE] },
        needsElevation: true,
        description: `Remove-HnsEndpoint, by ID, 1 endpoint(s): ${STALE}`,
      },
    ]);
    expect(p.preview.risk).toBe('medium');
    expect(p.preview.notes).toEqual([
      `Removes endpoint ${STALE} "default-test_nat": 172.27.148.101 on nat, state Created, namespace 2c094b9e-af3a-4dc1-97d8-821b68603d23, no container`,
      IRREVERSIBLE_NOTE,
    ]);

    const before = node.hns.endpoints.length;
    const r = await applyRepair(env, ID, { previewToken: p.preview.previewToken });
    expect([r.status, r.verification?.resolved]).toEqual(['applied', true]);
    expect(node.hns.endpoints).toHaveLength(before - 1);
    expect(node.hns.endpoints.map((e) => (e as { ID: string }).ID)).not.toContain(STALE);
    expect(repairCalls(node)).toEqual([{ cmdlet: 'Remove-HnsEndpoint', params: { Id: [STALE] } }]);

    const u = await undoEntry(env, r.entry as string);
    expect(u.status).not.toBe('undone');
    expect(u.reason).toMatch(
      /Remove-HnsEndpoint cannot be undone: HNS keeps no copy of what it removed/,
    );
    expect(repairCalls(node)).toHaveLength(1);
  });

  it('refuses any protected endpoint (remote, *_ep, source VIP) and anything but IDs', async () => {
    const node = windowsNode(s);
    const scan = await scanHost(new WindowsHost(node, { probeCri: criOf(s) }));
    const removal = (ids: string[]) => ({
      id: 'x',
      rule: 'hns.endpoint.stale',
      findingId: 'hns.endpoint.stale',
      offer: offer('hns-remove-endpoints', 't', { ids }),
    });
    const fs = new LocalNodeFs('/');
    const remote = await buildPlan(scan.snapshot, removal([STALE, REMOTE]), fs);
    expect(remote.ok ? '' : remote.reason).toMatch(
      /20c707a8-.* \("Ethernet"\) is a remote, host \(\*_ep\) or source-VIP endpoint/,
    );
    const hostEp = await buildPlan(
      scan.snapshot,
      removal(['A1B2C3D4-E5F6-4711-8899-AABBCCDDEEFF']),
      fs,
    );
    expect(hostEp.ok ? '' : hostEp.reason).toMatch(/"Calico_ep"/);
    const byName = await buildPlan(scan.snapshot, removal(['default-test_nat']), fs);
    expect(byName.ok ? '' : byName.reason).toMatch(
      /not an endpoint ID; endpoints are removed by ID only/,
    );
    const gone = await buildPlan(
      scan.snapshot,
      removal(['00000000-0000-4000-8000-000000000000']),
      fs,
    );
    expect(gone.ok ? '' : gone.reason).toMatch(/does not exist any more/);
    expect(repairCalls(node)).toEqual([]);
  });
});

describe('antrea-restart', () => {
  const s = scenario('antrea-1581-antrea-in-use');
  const ID = 'windows.cnisock.missing:antrea-restart';
  // The agent listens on \\.\pipe\cnisock once it runs with OVS up.
  const onStart: FakeRepairOptions['onStart'] = (node, name) => {
    const ovs = node.services.find((x) => x.name === 'ovs-vswitchd');
    if (name === 'antrea-agent' && ovs?.state === 'Running') node.pipes.push('cnisock');
  };

  it('starts ovs-vswitchd, then restarts antrea-agent; verified when the pipe exists', async () => {
    const node = windowsNode(s, () => undefined, { onStart });
    const env = windowsEnv(s, node);
    const p = await prepareRepair(env, ID);
    if (!p.ok) throw new Error(p.reason);
    const restart: RestartServiceStep = {
      kind: 'restart-service',
      service: 'antrea-agent',
      manager: 'windows',
      needsElevation: true,
    };
    expect(p.plan.steps).toEqual([
      {
        kind: 'powershell',
        cmdlet: 'Start-Service',
        params: { Name: 'ovs-vswitchd' },
        needsElevation: true,
        description:
          'Start-Service ovs-vswitchd (now stopped; nothing happens when it already runs)',
      },
      restart,
    ]);
    expect([p.preview.risk, p.preview.services]).toEqual(['low', ['antrea-agent']]);
    const r = await applyRepair(env, ID, { previewToken: p.preview.previewToken });
    expect([r.status, r.verification?.resolved, r.verification?.services]).toEqual([
      'applied',
      true,
      [{ name: 'antrea-agent', active: true }],
    ]);
    expect(repairCalls(node)).toEqual([
      { cmdlet: 'Start-Service', params: { Name: 'ovs-vswitchd' } },
      { cmdlet: 'Restart-Service', params: { Name: 'antrea-agent', Force: true } },
    ]);
  });

  it('without ovs-vswitchd installed, only restarts antrea-agent; without antrea-agent as a service, refuses', async () => {
    const noOvs = windowsNode(s, (spec) => {
      spec.services = spec.services?.filter((x) => x.name !== 'ovs-vswitchd');
    });
    const a = await prepareRepair(windowsEnv(s, noOvs), ID);
    expect(a.ok && a.plan.steps.map((x) => x.kind)).toEqual(['restart-service']);
    // A node whose rule still fires but where the agent is no service: the builder refuses.
    const env = windowsEnv(s, windowsNode(s));
    const scan = await env.scan();
    const snapshot = {
      ...scan.snapshot,
      services: {
        known: true as const,
        value: [{ name: 'antrea-agent', state: 'missing' as const }],
      },
    };
    const b = await buildPlan(
      snapshot,
      scan.repairs.get(ID) as NonNullable<ReturnType<typeof scan.repairs.get>>,
      env.fs,
    );
    expect(b.ok ? '' : b.reason).toMatch(/antrea-agent is not installed as a Windows service/);
  });

  it('when the antrea-hnsnetwork switch is gone (a reboot), says "run Prepare-AntreaAgent.ps1" instead (review L5)', async () => {
    const node = windowsNode(s, (spec) => {
      if (spec.hns)
        spec.hns.networks = spec.hns.networks.filter(
          (n) => (n as { Name?: string }).Name !== 'antrea-hnsnetwork',
        );
    });
    const p = await prepareRepair(windowsEnv(s, node), ID);
    expect(p.ok).toBe(false);
    expect(p.ok ? '' : p.reason).toMatch(
      /antrea-hnsnetwork HNS network\) is gone.*Run Prepare-AntreaAgent\.ps1/,
    );
    expect(repairCalls(node)).toEqual([]);
  });
});

describe('kubelet-remove-flags on a Windows start script', () => {
  const s = scenario('kubelet-down-startkubelet-network-plugin');
  const SCRIPT = 'C:\\k\\StartKubelet.ps1';

  /** The scenario node's files, read the way a repair reads them (no other call is answered). */
  function scriptFs(text: string): NodeFs {
    const refuse = (): never => {
      throw new Error('the plan only reads');
    };
    return {
      live: false,
      root: 'C:\\',
      realPath: async (p) => p,
      read: async (p) => (p === SCRIPT ? Buffer.from(text, 'utf8') : null),
      stat: async () => null,
      list: async () => null,
      writeAtomic: refuse,
      rename: refuse,
      remove: refuse,
      canWrite: async () => false,
      removeStaleTemps: async () => [],
    };
  }

  it('removes the removed flags from the script line the finding quotes, nothing else, and restarts the kubelet', async () => {
    const scan = await scanHost(new WindowsHost(windowsNode(s), { probeCri: criOf(s) }));
    const f = scan.report.findings.find((x) => x.rule === 'kubelet.flags.removed');
    expect(f?.repairs.map((r) => r.id)).toEqual(['kubelet.flags.removed:kubelet-remove-flags']);
    const text = (s.node.files as Record<string, string>)[SCRIPT] as string;
    const repair = {
      id: 'kubelet.flags.removed:kubelet-remove-flags',
      rule: 'kubelet.flags.removed',
      findingId: f?.id ?? '',
      offer: offer('kubelet-remove-flags', 't', {
        flags: ['network-plugin', 'image-pull-progress-deadline'],
      }),
    };
    const plan = await buildPlan(scan.snapshot, repair, scriptFs(text));
    if (!plan.ok) throw new Error(plan.reason);
    const write = plan.plan.steps[0];
    expect(write).toMatchObject({ kind: 'write', path: SCRIPT, needsElevation: true });
    const before = text.split('\r\n');
    const after = (write as { content: string }).content.split('\r\n');
    expect(after.length).toBe(before.length);
    const changed = before.flatMap((l, i) => (l === after[i] ? [] : [i + 1]));
    expect(changed).toEqual([14]);
    expect(after[13]).toBe(
      (before[13] as string)
        .replace(' --network-plugin=cni', '')
        .replace(' --image-pull-progress-deadline=20m', ''),
    );
    expect(plan.plan.steps.at(-1)).toMatchObject({ kind: 'restart-service', service: 'kubelet' });

    // The script changed since the scan (the flag is gone from line 14): refused, not guessed.
    const edited = text.replace(' --network-plugin=cni', '');
    const stale = await buildPlan(scan.snapshot, repair, scriptFs(edited));
    expect(stale.ok ? '' : stale.reason).toMatch(/--network-plugin is not on line 14/);
  });
});
