/**
 * "Never leave a conf dir with zero loadable configs": with no valid config containerd cannot
 * even tear existing pods down ("failed to destroy network for sandbox … cni plugin not
 * initialized", docs/knowledge/node-layouts.md#what-each-repair-does-to-a-running-node), so pods stick in Terminating. Checked here against the directory
 * as it is now (not the snapshot), and again after the repair by verify.
 */
import type { Snapshot } from '../../../shared/model/snapshot';
import { basenameNode, dirnameNode, pathKey } from '../../conventions/node-paths';
import { cniExtension, parseCniConfig, wantsFolder } from '../../probes/cni-parse';
import type { FolderPlugins } from '../../probes/cni-parse';
import { joinNode } from '../../conventions/node-paths';
import type { PlanHost } from './plan-host';
import { refuse } from './refusal';
import { LOADABLE_EXTENSIONS } from '../../conventions/cni-files';

export interface DirRename {
  from: string;
  to: string;
}

function loadable(name: string, os: 'linux' | 'windows'): boolean {
  return (LOADABLE_EXTENSIONS as readonly string[]).includes(cniExtension(name, os));
}

/** Valid loadable configs in a directory listing. */
export async function countValid(
  host: PlanHost,
  dir: string,
  names: readonly string[],
): Promise<number> {
  let n = 0;
  for (const name of names) {
    if (!loadable(name, host.os)) continue;
    const p = joinNode(host.os, dir, name);
    const st = await host.fs.stat(p, true);
    if (st?.type !== 'file') continue;
    const t = await host.text(p);
    if (!t) continue;
    const ext = cniExtension(name, host.os);
    const want = ext === '.conflist' ? wantsFolder(t.text) : undefined;
    const folder = want === undefined ? undefined : await pluginFolder(host, dir, want);
    if (parseCniConfig(t.text, ext, { folder: folder ?? { ok: true, plugins: [] } }).ok) n++;
  }
  return n;
}

/**
 * libcni v1.3 adds `<dir>/<network name>/*.conf` to a conflist (the newest loader, which the
 * snapshot assumes when the runtime's version is unknown). A name that is not a plain folder
 * name counts as unreadable: the guard would rather undercount than call a dir safe.
 */
async function pluginFolder(host: PlanHost, dir: string, name: string): Promise<FolderPlugins> {
  if (name === '' || name === '.' || name === '..' || /[\\/]/.test(name))
    return { ok: false, error: `plugin folder ${name} not judged` };
  const folder = joinNode(host.os, dir, name);
  const names = await host.list(folder);
  if (!names) return { ok: true, plugins: [] };
  const plugins: { file: string; text: string }[] = [];
  for (const n of [...names].sort()) {
    if (cniExtension(n, host.os) !== '.conf') continue;
    const t = await host.text(joinNode(host.os, folder, n));
    if (!t) return { ok: false, error: `${n} in ${folder} could not be read` };
    plugins.push({ file: n, text: t.text });
  }
  return { ok: true, plugins };
}

/** Pod sandboxes the runtimes reported, or undefined when they were not asked. */
export function sandboxCount(s: Snapshot): number | undefined {
  if (!s.cri) return undefined;
  return s.cri.reduce((n, c) => n + (c.sandboxes?.length ?? 0), 0);
}

/** Refuses when the renames would take a conf dir from ≥1 valid config to none. */
export async function assertConfigRemains(
  s: Snapshot,
  host: PlanHost,
  renames: readonly DirRename[],
): Promise<void> {
  const os = host.os;
  const dirs = new Map<string, string>();
  for (const r of renames)
    for (const p of [r.from, r.to]) dirs.set(pathKey(os, dirnameNode(os, p)), dirnameNode(os, p));
  for (const dir of dirs.values()) {
    const names = await host.list(dir);
    if (!names) continue;
    const after = new Set(names);
    for (const r of renames) {
      if (pathKey(os, dirnameNode(os, r.from)) === pathKey(os, dir))
        after.delete(basenameNode(os, r.from));
      if (pathKey(os, dirnameNode(os, r.to)) === pathKey(os, dir))
        after.add(basenameNode(os, r.to));
    }
    const before = await countValid(host, dir, names);
    const remaining = await countValid(host, dir, [...after]);
    if (before > 0 && remaining === 0) {
      const pods = sandboxCount(s);
      refuse(
        `${dir} would be left without any valid CNI config` +
          (pods === undefined
            ? ' (and the runtime was not asked how many pods run here)'
            : pods > 0
              ? ` while ${pods} pod sandbox(es) exist`
              : '') +
          `: the runtime could then not tear pods down ("cni plugin not initialized"). Install or fix the replacement config first.`,
      );
    }
  }
}
