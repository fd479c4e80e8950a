/**
 * Ask every plugin binary the runtimes' valid configs name which CNI versions it supports
 * (CNI_COMMAND=VERSION, no network change). The binary is the first bin dir's, as libcni's
 * FindInPath picks it. Only hosts that can run or replay it answer.
 */
import type { CniBinDir, CniConfDir, PluginProbe } from '../../shared/model/snapshot';
import { joinNode } from '../host/paths';
import type { ProbeContext } from './context';

const MAX_PLUGINS = 32;

export async function probePluginVersions(
  ctx: ProbeContext,
  confDirs: readonly CniConfDir[],
  binDirs: readonly CniBinDir[],
): Promise<PluginProbe[]> {
  if (ctx.os !== 'linux' || !ctx.host.pluginVersion) return [];
  const types = new Set<string>();
  for (const d of confDirs)
    if (d.entries.known)
      for (const f of d.entries.value) {
        const p = f.loadable && f.parse?.known ? f.parse.value : undefined;
        if (p?.ok)
          for (const x of p.plugins) if (/^[A-Za-z0-9._-]+$/.test(x.type)) types.add(x.type);
      }
  // Asked together (each is a program run; through a transport, a run on the node), kept in order.
  const asked = await Promise.all(
    [...types].slice(0, MAX_PLUGINS).map(async (type): Promise<PluginProbe | undefined> => {
      const dir = binDirs.find((b) => b.entries.known && b.entries.value.includes(type));
      if (!dir) return undefined;
      const path = joinNode('linux', dir.path, type);
      const answer = await ctx.host.pluginVersion?.(path);
      return answer ? { type, path, answer } : undefined;
    }),
  );
  return asked.filter((p): p is PluginProbe => p !== undefined);
}
