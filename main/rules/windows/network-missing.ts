import type { Rule, FindingDraft, RepairOffer } from '../types';
import { offer } from '../offers';
import { fail, pass, unknown } from '../types';
import { confFileEvidence } from '../evidence';
import { isRuntime, windowsContainerd } from './shared';
import { findNetwork, networkNeed } from './needs';

export const hnsNetworkMissing: Rule = {
  id: 'hns.network.missing',
  area: 'windows',
  severity: 'error',
  title: 'The CNI config in use needs an HNS network that does not exist',
  firesWhen:
    'the CNI config in use needs an HNS network that does not exist: the `nat` plugin needs a network named by its `name` (default `nat`); flannel, Calico and Antrea need theirs',
  repair: {
    kind: 'auto',
    text: "for `nat`: create the NAT network (`New-HnsNetwork -Type NAT -Name <name>`, with the config's subnet and gateway when given); otherwise guidance (restart the CNI agent that creates it)",
  },
  platforms: ['windows'],
  kb: [
    'docs/knowledge/windows-containerd.md#the-nat-plugin',
    'docs/knowledge/windows-cni-agents.md#antrea',
    'docs/knowledge/windows-cni-agents.md#flannel',
  ],
  evaluate(ctx) {
    const rt = windowsContainerd(ctx);
    if (!isRuntime(rt)) return rt;
    if (!rt.load) return unknown(`${rt.label}'s CNI conf dir could not be listed`);
    const needs = rt.load.inUse
      .map(networkNeed)
      .filter((n): n is NonNullable<typeof n> => n !== undefined);
    if (needs.length === 0) return pass();
    const hns = ctx.snapshot.windows?.hns;
    if (!hns || !hns.known)
      return unknown(`HNS networks could not be read${hns && !hns.known ? `: ${hns.reason}` : ''}`);
    const findings: FindingDraft[] = [];
    for (const need of needs) {
      if (findNetwork(hns.value, need)) continue;
      const repairs: RepairOffer[] =
        need.creator === 'nat'
          ? [
              offer(
                'hns-create-nat-network',
                `Create the HNS NAT network "${need.network}"${need.subnet ? ` (${need.subnet}${need.gateway ? ` via ${need.gateway}` : ''})` : ''}`,
                {
                  name: need.network,
                  ...(need.subnet !== undefined && { subnet: need.subnet }),
                  ...(need.gateway !== undefined && { gateway: need.gateway }),
                },
              ),
            ]
          : [];
      const agent =
        need.plugin === 'antrea'
          ? 'antrea-agent'
          : need.plugin === 'calico'
            ? 'CalicoNode'
            : need.plugin === 'flannel'
              ? 'flanneld'
              : 'the CNI agent';
      findings.push({
        key: need.network,
        severity: 'error',
        runtime: rt.label,
        title: `HNS network "${need.network}" needed by ${need.file.name} does not exist`,
        summary: `${rt.label} uses ${need.file.name} (plugin ${need.plugin}), which attaches pods to the HNS network "${need.network}". No such network exists (${hns.value.networks.length ? `networks: ${hns.value.networks.map((n) => `${n.name} (${n.type})`).join(', ')}` : 'there are no HNS networks'}), so every pod sandbox fails.`,
        evidence: [
          confFileEvidence(need.file),
          {
            kind: 'text',
            text: `HNS networks on the node: ${hns.value.networks.map((n) => `${n.name} [${n.type}]`).join(', ') || 'none'}`,
          },
        ],
        repairs,
        ...(repairs.length === 0 && {
          guidance: `${agent} creates "${need.network}" when it starts: check that it runs (Get-Service ${agent}) and read its log. The network does not survive a reboot for Antrea (run Prepare-AntreaAgent.ps1 at boot).`,
        }),
      });
    }
    return findings.length ? fail(...findings) : pass();
  },
};
