/**
 * antrea-restart (windows.cnisock.missing): start ovs-vswitchd when it is installed (antrea-agent
 * depends on it, docs/knowledge/windows-node.md#services-restart-order-and-logs), then restart antrea-agent so that it listens on
 * \\.\pipe\cnisock again. Verified by scanning again: the pipe must exist.
 *
 * Not offered when Antrea's VM switch, the `antrea-hnsnetwork` HNS network, is gone (a reboot
 * without Prepare-AntreaAgent.ps1, a common reason the pipe is missing): ovs-vswitchd then cannot
 * start until br-int is removed, which Antrea's own Start-OVSServices does before starting it
 * (antrea hack/windows/Helper.psm1, "Or ovs-vswitchd service will can not get started"), so a
 * plain Start-Service would fail and roll back. Prepare-AntreaAgent.ps1 is the repair then.
 */
import type { PowerShellStep, RepairStep } from '../../../shared/model/repair';
import type { PlanBuilder } from './types';
import { refuse } from './refusal';
import { restartStep } from './steps';
import { requireLiveWindows } from './windows-node';

export const buildAntreaRestart: PlanBuilder<'antrea-restart'> = async (s, _r, host) => {
  requireLiveWindows(s, host);
  if (!s.services.known) refuse(`the Windows services could not be read: ${s.services.reason}`);
  const find = (name: string) =>
    s.services.known ? s.services.value.find((x) => x.name.toLowerCase() === name) : undefined;
  const agent = find('antrea-agent');
  if (!agent || agent.state === 'missing')
    refuse(
      'antrea-agent is not installed as a Windows service here (a HostProcess DaemonSet pod is restarted with kubectl)',
    );
  const hns = s.windows?.hns;
  if (hns?.known && !hns.value.networks.some((n) => n.name.toLowerCase() === 'antrea-hnsnetwork'))
    refuse(
      "Antrea's VM switch (the antrea-hnsnetwork HNS network) is gone, as after a reboot: ovs-vswitchd cannot start until br-int is cleaned up, so restarting the services would fail. Run Prepare-AntreaAgent.ps1 (from Antrea's hack/windows, as at boot): it cleans br-int, starts OVS and antrea-agent, which creates the network again; then scan again",
    );
  const ovs = find('ovs-vswitchd');
  const steps: RepairStep[] = [];
  if (ovs && ovs.state !== 'missing') {
    const start: PowerShellStep = {
      kind: 'powershell',
      cmdlet: 'Start-Service',
      params: { Name: 'ovs-vswitchd' },
      needsElevation: true,
      description: `Start-Service ovs-vswitchd (now ${ovs.state}; nothing happens when it already runs)`,
    };
    steps.push(start);
  }
  steps.push(restartStep(host, 'antrea-agent'));
  return {
    risk: 'low',
    steps,
    podImpact:
      'Running pods keep their network. Pods waiting for a sandbox get one once antrea-agent listens on \\\\.\\pipe\\cnisock.',
    notes: [
      'Verified by scanning again: \\\\.\\pipe\\cnisock must exist and antrea-agent run.',
      "If antrea-agent stops again, its log says why (C:\\k\\antrea\\logs or C:\\var\\log\\antrea); a reboot also removes Antrea's HNS network (run Prepare-AntreaAgent.ps1 at boot).",
    ],
  };
};
