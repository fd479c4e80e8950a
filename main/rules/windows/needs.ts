/**
 * Which HNS network a Windows CNI config needs (docs/knowledge/windows-containerd.md#the-nat-plugin, docs/knowledge/windows-cni-agents.md#antrea, docs/knowledge/windows-cni-agents.md#flannel): the `nat` plugin looks
 * its network up by the config's `name` (default "nat"); flannel, Calico, sdnbridge/sdnoverlay
 * by the config name; Antrea always uses `antrea-hnsnetwork`.
 */
import type { CniConfFile } from '../../../shared/model/snapshot';
import type { HnsModel, HnsNetwork } from '../../../shared/model/hns';
import { parsed } from '../derive';

export interface NetworkNeed {
  file: CniConfFile;
  plugin: string;
  network: string;
  subnet?: string;
  gateway?: string;
  /** Who creates the network when it is missing. */
  creator: 'nat' | 'agent';
}

const BY_CONFIG_NAME = new Set([
  'flannel',
  'calico',
  'sdnbridge',
  'sdnoverlay',
  'win-bridge',
  'win-overlay',
  'nat',
]);

export function networkNeed(f: CniConfFile): NetworkNeed | undefined {
  const p = parsed(f);
  if (!p?.ok) return undefined;
  const main = p.plugins.find((x) => x.role === 'plugin');
  if (!main) return undefined;
  const type = main.type.toLowerCase();
  if (type === 'antrea')
    return { file: f, plugin: 'antrea', network: 'antrea-hnsnetwork', creator: 'agent' };
  if (!BY_CONFIG_NAME.has(type)) return undefined;
  const network = p.network && p.network !== '' ? p.network : type === 'nat' ? 'nat' : '';
  if (network === '') return undefined;
  return {
    file: f,
    plugin: type,
    network,
    creator: type === 'nat' ? 'nat' : 'agent',
    ...(main.subnet !== undefined && { subnet: main.subnet }),
    ...(main.gateway !== undefined && { gateway: main.gateway }),
  };
}

export function findNetwork(hns: HnsModel, need: NetworkNeed): HnsNetwork | undefined {
  const want = need.network.toLowerCase();
  const byName = hns.networks.find((n) => n.name.toLowerCase() === want);
  if (byName) return byName;
  // containerd's nat config uses the name as the network *type* (docs/knowledge/windows-containerd.md#the-nat-plugin).
  if (need.plugin === 'nat') return hns.networks.find((n) => n.type.toLowerCase() === want);
  return undefined;
}
