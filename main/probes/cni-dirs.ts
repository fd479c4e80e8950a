/**
 * CNI conf dirs and bin dirs: every entry in the runtime's byte-wise load order, each loadable
 * file (and each disabled variant) parsed with libcni's semantics (docs/knowledge/cni-loading.md#how-libcni-finds-config-files, docs/knowledge/cni-loading.md#containerds-loader, docs/knowledge/cni-loading.md#load-order-on-a-real-node).
 */
import type { Fact } from '../../shared/model/fact';
import { known, unknownFact } from '../../shared/model/fact';
import type { CniBinDir, CniConfDir, CniConfFile, CniParse } from '../../shared/model/snapshot';
import { joinNode } from '../conventions/node-paths';
import type { ProbeContext } from './context';
import { decodeText } from './context';
import type { FolderPlugins, LibcniGen } from './cni-parse';
import { byteOrderMarkError, cniExtension, parseCniConfig, wantsFolder } from './cni-parse';
import { LOADABLE_EXTENSIONS, byteOrder, disabledOriginal } from '../conventions/cni-files';

/** Evidence quotes need the text; a CNI config larger than this is not a real one. */
export const MAX_CONF_TEXT = 256 * 1024;
/**
 * Loadable files (and disabled variants) parsed per conf dir. libcni lists and reads every
 * entry (conf.go@v1.3.0 L298-325); past this many the node is too large to judge, which the
 * model says (unknown) rather than judging a cut listing. Other names are never read, so they
 * are not counted.
 */
export const MAX_LOADABLE_ENTRIES = 5000;

export async function probeConfDir(ctx: ProbeContext, path: string): Promise<CniConfDir> {
  const listing = await ctx.list(path);
  if (!listing.ok) {
    if (listing.error === 'ENOENT') return { path, entries: known([]), missing: true };
    return { path, entries: unknownFact(listing.message), missing: false };
  }
  const names = [...listing.entries].sort(byteOrder);
  const considered = names.filter(
    (n) =>
      (LOADABLE_EXTENSIONS as readonly string[]).includes(cniExtension(n, ctx.os)) ||
      disabledOriginal(n) !== undefined,
  );
  if (considered.length > MAX_LOADABLE_ENTRIES)
    return {
      path,
      entries: unknownFact(
        `${path} holds ${considered.length} CNI config files (more than ${MAX_LOADABLE_ENTRIES}): too large to judge`,
      ),
      missing: false,
    };
  // Names that are never read are kept for the listing up to the same cap; the loadable ones
  // are always all kept, so a flood of *.bak files cannot hide the config in use.
  const keep = new Set(considered);
  let other = 0;
  const kept = names.filter((n) => keep.has(n) || other++ < MAX_LOADABLE_ENTRIES);
  const all = new Set(names);
  const entries = await Promise.all(kept.map((n) => probeConfEntry(ctx, path, n, all)));
  return { path, entries: known(entries), missing: false };
}

/** Read errors the runtime would meet too: the file is then invalid for it, not unknown. */
const RUNTIME_READ_ERRORS = new Set(['ENOENT', 'EISDIR', 'ELOOP', 'ENOTDIR']);

async function probeConfEntry(
  ctx: ProbeContext,
  dir: string,
  name: string,
  siblings: ReadonlySet<string>,
): Promise<CniConfFile> {
  const path = joinNode(ctx.os, dir, name);
  const st = await ctx.stat(path);
  // os.ReadDir does not follow links: a symlink to a folder is listed as a file and read
  // (conf.go@v1.3.0 L311-315); only a real folder is skipped.
  // Windows: links in a conf dir are rare, and a remote Windows host answers from one batch.
  const lst =
    ctx.os === 'linux'
      ? await ctx.host.stat(path, { noFollow: true }).catch(() => undefined)
      : undefined;
  // A bundle keeps the followed type and the link's target: a target means a link.
  const isLink = lst?.ok === true && (lst.type === 'symlink' || lst.target !== undefined);
  const ext = cniExtension(name, ctx.os);
  const original = disabledOriginal(name);
  const kind: CniConfFile['kind'] = isLink
    ? 'symlink'
    : !st.ok
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
    ...(isLink && lst?.ok && lst.target !== undefined && { target: lst.target }),
    ...(isLink && !st.ok && st.error === 'ENOENT' && { dangling: true }),
  };
  if (!loadable && original === undefined) return base;
  if (kind === 'dir') return base;
  const parseExt = loadable ? ext : cniExtension(original as string, ctx.os);
  const r = await ctx.read(path);
  if (!r.ok) {
    // A link that leads nowhere (or loops, or to a folder) fails the runtime's read the same
    // way; a regular file that vanished since the listing was rewritten mid-scan: unknown.
    const runtimeSees = r.error === 'EISDIR' || (isLink && RUNTIME_READ_ERRORS.has(r.error));
    if (runtimeSees) {
      const why =
        r.error === 'EISDIR'
          ? 'is a directory'
          : r.error === 'ENOENT'
            ? 'no such file or directory'
            : r.error === 'ELOOP'
              ? 'too many levels of symbolic links'
              : 'not a directory';
      return {
        ...base,
        parse: known({ ok: false, error: `error reading ${path}: read ${path}: ${why}` }),
      };
    }
    return { ...base, parse: unknownFact(r.message) };
  }
  const text = decodeText(r.data);
  if (r.truncated)
    return {
      ...base,
      parse: unknownFact(
        `${path} is larger than ${r.data.length} bytes: too large to judge (the runtime reads it whole)`,
      ),
      text: text.slice(0, MAX_CONF_TEXT),
      size: r.size,
    };
  const bom = byteOrderMarkError(r.data, parseExt);
  const folderName = !bom && parseExt === '.conflist' ? wantsFolder(text) : undefined;
  const folder =
    folderName !== undefined && loadable
      ? await readPluginFolder(ctx, dir, folderName, siblings)
      : undefined;
  if (folder && !folder.known)
    return {
      ...base,
      parse: unknownFact(folder.reason),
      text: text.slice(0, MAX_CONF_TEXT),
      size: r.size,
    };
  const by = (gen: LibcniGen): CniParse =>
    bom ??
    parseCniConfig(text, parseExt, { gen, folder: folder?.value ?? { ok: true, plugins: [] } });
  const parse = by('1.3');
  const parseByLibcni: NonNullable<CniConfFile['parseByLibcni']> = {};
  const parseJson = JSON.stringify(parse);
  for (const gen of ctx.olderLoaders ? (['1.1', '1.2'] as const) : []) {
    const p = by(gen);
    if (JSON.stringify(p) !== parseJson) parseByLibcni[gen] = known(p);
  }
  return {
    ...base,
    parse: known(parse),
    ...(Object.keys(parseByLibcni).length > 0 && { parseByLibcni }),
    text: text.slice(0, MAX_CONF_TEXT),
    size: r.size,
  };
}

/**
 * libcni v1.3 `NetworkPluginConfsFromFiles(confdir, name)` (conf.go@v1.3.0 L68-90): the
 * `*.conf` files of `<confdir>/<name>` in byte order. A missing folder adds nothing; a name that
 * is not a folder, or a file that cannot be read, fails the whole conflist.
 */
async function readPluginFolder(
  ctx: ProbeContext,
  dir: string,
  name: string,
  siblings: ReadonlySet<string>,
): Promise<Fact<FolderPlugins>> {
  const folder = name === '' ? dir : joinNode(ctx.os, dir, name);
  // A path component past NAME_MAX (255 bytes) fails open(2) with ENAMETOOLONG for the runtime
  // as well: the conflist is invalid under libcni v1.3, whatever this host's resolver says.
  if (name.split(/[\\/]/).some((part) => Buffer.byteLength(part) > 255))
    return known({
      ok: false,
      error: `failed to read plugin config files in ${folder}: open ${folder}: file name too long`,
    });
  // A plain name that is not an entry of the conf dir has no folder: no need to ask the node.
  if (name !== '' && name !== '.' && name !== '..' && !/[\\/]/.test(name) && !siblings.has(name))
    return known({ ok: true, plugins: [] });
  const listing = await ctx.list(folder);
  if (!listing.ok) {
    // A bundle recorded before plugin folders were read has no answer for the folder: almost
    // every node has none, and bundles recorded since hold the listing when one exists.
    if (listing.error === 'ENOENT' || listing.error === 'UNRECORDED')
      return known({ ok: true, plugins: [] });
    if (listing.error === 'ENOTDIR')
      return known({
        ok: false,
        error: `failed to read plugin config files in ${folder}: not a directory`,
      });
    return unknownFact(`plugin folder ${folder}: ${listing.message}`);
  }
  const plugins: { file: string; text: string }[] = [];
  for (const n of [...listing.entries].sort(byteOrder)) {
    if (cniExtension(n, ctx.os) !== '.conf') continue;
    const p = joinNode(ctx.os, folder, n);
    const lst = await ctx.host.stat(p, { noFollow: true }).catch(() => undefined);
    if (lst?.ok && lst.type === 'dir') continue;
    const r = await ctx.read(p);
    if (!r.ok) {
      if (RUNTIME_READ_ERRORS.has(r.error))
        return known({ ok: false, error: `error reading ${p}: ${r.message}` });
      return unknownFact(r.message);
    }
    if (r.truncated) return unknownFact(`${p} is too large to judge`);
    plugins.push({ file: n, text: decodeText(r.data) });
  }
  return known({ ok: true, plugins });
}

export async function probeBinDir(ctx: ProbeContext, path: string): Promise<CniBinDir> {
  const listing = await ctx.list(path);
  if (!listing.ok) {
    if (listing.error === 'ENOENT') return { path, entries: known([]), missing: true };
    return { path, entries: unknownFact(listing.message), missing: false };
  }
  const names = [...listing.entries].sort(byteOrder);
  // What os.Stat and exec see (pkg/invoke/find.go@v1.3.0 L39-45): a folder or a dangling link
  // is not found, a file without the execute bit fails at exec. Windows has no execute bit.
  const unusable: NonNullable<CniBinDir['unusable']> = {};
  if (ctx.os === 'linux' && names.length <= MAX_LOADABLE_ENTRIES)
    await Promise.all(
      names.map(async (n) => {
        const st = await ctx.stat(joinNode(ctx.os, path, n));
        if (!st.ok) {
          if (st.error === 'ENOENT') unusable[n] = 'dangling';
        } else if (st.type === 'dir') unusable[n] = 'dir';
        else if (ctx.os === 'linux' && st.type === 'file' && st.executable === false)
          unusable[n] = 'not-executable';
      }),
    );
  return {
    path,
    entries: known(names),
    missing: false,
    ...(Object.keys(unusable).length > 0 && { unusable }),
  };
}

/** Moved to main/conventions/cni-files.ts; re-exported for code written before the move. */
export { byteOrder } from '../conventions/cni-files';
