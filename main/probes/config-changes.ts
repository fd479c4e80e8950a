/**
 * When the configuration last changed: modification times of the runtimes' CNI conf dirs (the
 * directory itself changes when a file is added, renamed or removed), of each entry in them, and
 * of the runtimes' config files. Log lines older than the newest of these may describe a state
 * that no longer exists (engine/post/old-log-lines.ts).
 */
import type { Fact } from '../../shared/model/fact';
import type { CniConfDir, ContainerdFacts, CrioFacts } from '../../shared/model/snapshot';
import { pathKey } from '../conventions/node-paths';
import type { ProbeContext } from './context';

export async function probeConfigChanges(
  ctx: ProbeContext,
  runtimes: readonly Fact<ContainerdFacts | CrioFacts | null>[],
  confDirs: readonly CniConfDir[],
): Promise<{ path: string; mtime: string }[]> {
  const paths: string[] = [];
  for (const rt of runtimes) {
    if (!rt.known || !rt.value) continue;
    // Runtime config files: Linux only; a Windows collection records no file times yet, and each
    // extra stat there would be a PowerShell round trip for nothing.
    if (ctx.os === 'linux')
      paths.push(...rt.value.files.filter((f) => f.exists).map((f) => f.path));
    const key = pathKey(ctx.os, rt.value.cni.confDir.value).replace(/[\\/]+$/, '');
    const dir = confDirs.find((d) => pathKey(ctx.os, d.path).replace(/[\\/]+$/, '') === key);
    if (!dir || dir.missing) continue;
    paths.push(dir.path);
    if (dir.entries.known) paths.push(...dir.entries.value.map((e) => e.path));
  }
  const out: { path: string; mtime: string }[] = [];
  for (const p of [...new Set(paths)]) {
    const st = await ctx.stat(p);
    if (st.ok && st.mtime !== undefined && !Number.isNaN(Date.parse(st.mtime)))
      out.push({ path: p, mtime: st.mtime });
  }
  return out;
}
