/**
 * hns-create-nat-network (hns.network.missing, nat plugin): create the NAT network the config in
 * use names, with the config's subnet and gateway when it gives them (docs/knowledge/windows-containerd.md#the-nat-plugin, docs/knowledge/windows-hns.md#creating-and-removing-networks).
 * Refused when the config's values are not what HNS would accept as meant: a prefix with host
 * bits set is the known `32 - prefixLength` bug of the setup scripts (docs/knowledge/windows-containerd.md#the-nat-plugin), and a prefix that
 * overlaps another network's would make WinNAT refuse or misroute.
 */
import type { PowerShellStep } from '../../../shared/model/repair';
import type { PlanBuilder } from './types';
import { refuse } from './refusal';
import { aligned, contains, ipv4ToInt, overlaps, parsePrefix } from './ipv4';
import { requireHns, requireLiveWindows } from './windows-node';

export const buildHnsCreateNatNetwork: PlanBuilder<'hns-create-nat-network'> = async (
  s,
  r,
  host,
) => {
  requireLiveWindows(s, host);
  const hns = requireHns(s);
  const name = r.offer.params.name;
  const subnet = r.offer.params.subnet;
  const gateway = r.offer.params.gateway;
  const same = hns.networks.find((n) => n.name.toLowerCase() === name.toLowerCase());
  if (same)
    refuse(`an HNS network named "${same.name}" exists already (${same.id}); nothing to create`);

  const notes: string[] = [];
  if (subnet !== undefined) {
    const p = parsePrefix(subnet);
    if (!p)
      refuse(
        `the config's subnet "${subnet}" is not an IPv4 prefix (a.b.c.d/n); fix the config, or create the network by hand`,
      );
    if (!aligned(p)) {
      refuse(
        `the config's subnet "${subnet}" has host bits set for /${p.bits}: its prefix length is likely wrong (setup scripts computed 32 minus the prefix length, docs/knowledge/windows-containerd.md#the-nat-plugin); fix the config first`,
      );
    }
    for (const n of hns.networks) {
      for (const other of n.subnets) {
        const q = parsePrefix(other.prefix);
        if (q && overlaps(p, q))
          refuse(
            `${subnet} overlaps ${other.prefix} of the HNS network "${n.name}"; fix the config's subnet first`,
          );
      }
    }
    if (gateway !== undefined) {
      const g = ipv4ToInt(gateway);
      if (g === undefined) refuse(`the config's gateway "${gateway}" is not an IPv4 address`);
      if (!contains(p, g))
        refuse(`the config's gateway ${gateway} is outside its subnet ${subnet}`);
    }
  } else {
    notes.push(
      'The config gives no subnet: HNS picks one (docs/knowledge/windows-hns.md#creating-and-removing-networks).',
    );
    if (gateway !== undefined)
      notes.push(`The config's gateway ${gateway} is not used: a gateway needs a subnet.`);
  }

  const params: PowerShellStep['params'] = { Type: 'NAT', Name: name };
  if (subnet !== undefined) params.AddressPrefix = subnet;
  if (subnet !== undefined && gateway !== undefined) params.Gateway = gateway;
  const shown = Object.entries(params)
    .map(([k, v]) => `-${k} ${JSON.stringify(v)}`)
    .join(' ');
  const step: PowerShellStep = {
    kind: 'powershell',
    cmdlet: 'New-HnsNetwork',
    params,
    needsElevation: true,
    description: `New-HnsNetwork ${shown}`,
  };
  return {
    risk: 'low',
    steps: [step],
    podImpact: `Running pods are not touched. Pods stuck creating their sandbox get an endpoint on "${name}" the next time the kubelet retries.`,
    notes: [
      ...notes,
      "The network is created the way hns.psm1's New-HnsNetwork creates it (HNS v1 POST /networks with Type, Name and Subnets); the built-in HostNetworkingService module has no New-HnsNetwork.",
      'Verified by scanning again: the network must exist and the finding be gone.',
      'Undo removes exactly this network, by the ID HNS gave it.',
    ],
  };
};
