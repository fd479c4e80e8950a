/** podman's containers.conf network settings (docs/knowledge/node-layouts.md#other-tools-that-write-cni-configs): a CNI backend reads its own dir. */
import type { PodmanFacts } from '../../shared/model/snapshot';
import type { ProbeContext } from './context';
import { lookupString, parseConfigFile } from './config-chain';

const PATHS = ['/etc/containers/containers.conf', '/usr/share/containers/containers.conf'];

export async function probePodman(ctx: ProbeContext): Promise<PodmanFacts | undefined> {
  for (const path of PATHS) {
    const t = await ctx.text(path);
    if (!t.known || !t.value) continue;
    const parsed = parseConfigFile(t.value, []);
    if (!parsed) return { path };
    const networkBackend = lookupString([parsed], ['network', 'network_backend']);
    const cniConfigDir = lookupString([parsed], ['network', 'network_config_dir']);
    return {
      path,
      ...(networkBackend && { networkBackend }),
      ...(cniConfigDir && { cniConfigDir }),
    };
  }
  return undefined;
}
