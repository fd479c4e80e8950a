/**
 * CNI conf dirs and bin dirs: every entry in the runtime's byte-wise load order, each loadable
 * file (and each disabled variant) parsed with libcni's semantics (docs/knowledge/cni-loading.md#how-libcni-finds-config-files, docs/knowledge/cni-loading.md#containerds-loader, docs/knowledge/cni-loading.md#load-order-on-a-real-node).
 */
import type { Fact } from '../../shared/model/fact';
import { known, unknownFact } from '../../shared/model/fact';
import type { CniBinDir, CniConfDir, CniConfFile } from '../../shared/model/snapshot';
import { joinNode } from '../conventions/node-paths';
import type { ProbeContext } from './context';
import { decodeText } from './context';
import { byteOrderMarkError, cniExtension, parseCniConfig } from './cni-parse';
import { LOADABLE_EXTENSIONS, byteOrder, disabledOriginal } from '../conventions/cni-files';

/** Evidence quotes need the text; a CNI config larger than this is not a real one. */
export const MAX_CONF_TEXT = 256 * 1024;
const MAX_ENTRIES = 5000;

export async function probeConfDir(ctx: ProbeContext, path: string): Promise<CniConfDir> {
  const listing = await ctx.list(path);
  if (!listing.ok) {
    if (listing.error === 'ENOENT') return { path, entries: known([]), missing: true };
    return { path, entries: unknownFact(listing.message), missing: false };
  }
  const names = [...listing.entries].sort(byteOrder).slice(0, MAX_ENTRIES);
  const entries = await Promise.all(names.map((n) => probeConfEntry(ctx, path, n)));
  return { path, entries: known(entries), missing: false };
}

async function probeConfEntry(ctx: ProbeContext, dir: string, name: string): Promise<CniConfFile> {
  const path = joinNode(ctx.os, dir, name);
  const st = await ctx.stat(path);
  const ext = cniExtension(name, ctx.os);
  const original = disabledOriginal(name);
  // libcni skips directories only; a symlink to a file is loaded like the file (docs/knowledge/cni-loading.md#how-libcni-finds-config-files).
  const kind: CniConfFile['kind'] = !st.ok
    ? 'file'
    : st.type === 'dir'
      ? 'dir'
      : st.type === 'file'
        ? 'file'
        : st.type === 'symlink'
          ? 'symlink'
          : 'other';
  const loadable = kind !== 'dir' && (LOADABLE_EXTENSIONS as readonly string[]).includes(ext);
  const base: CniConfFile = {
    name,
    path,
    kind,
    loadable,
    disabledVariant: original !== undefined,
    ...(st.ok && st.size !== undefined && { size: st.size }),
  };
  if (!loadable && original === undefined) return base;
  if (kind === 'dir') return base;
  const parseExt = loadable ? ext : cniExtension(original as string, ctx.os);
  const r = await ctx.read(path);
  if (!r.ok) return { ...base, parse: unknownFact(r.message) };
  const text = decodeText(r.data);
  const parse: Fact<ReturnType<typeof parseCniConfig>> = r.truncated
    ? known({ ok: false, error: `file is larger than ${r.data.length} bytes; not a CNI config` })
    : known(byteOrderMarkError(r.data, parseExt) ?? parseCniConfig(text, parseExt));
  return { ...base, parse, text: text.slice(0, MAX_CONF_TEXT), size: r.size };
}

export async function probeBinDir(ctx: ProbeContext, path: string): Promise<CniBinDir> {
  const listing = await ctx.list(path);
  if (!listing.ok) {
    if (listing.error === 'ENOENT') return { path, entries: known([]), missing: true };
    return { path, entries: unknownFact(listing.message), missing: false };
  }
  return { path, entries: known([...listing.entries].sort(byteOrder)), missing: false };
}

/** Moved to main/conventions/cni-files.ts; re-exported for code written before the move. */
export { byteOrder } from '../conventions/cni-files';
