/**
 * The load order "after this repair": the plan's file operations (renames and writes in a conf
 * dir) and the runtime settings its offer changes (conf dir, bin dirs, CRI-O's default network)
 * applied to the scan's snapshot, then judged by the same model the rules use
 * (main/rules/derive.ts). So the preview shows which file will be in use before anything is
 * touched; the verification rescan then reads the real node.
 *
 * A write parses the new content as the probe would (main/probes/cni-dirs.ts), without a
 * libcni v1.3 plugin folder: no plan writes one.
 */
import type { LoadOrderComparison } from '../../shared/model/compare';
import type { RepairPlan } from '../../shared/model/repair';
import type {
  CniConfDir,
  CniConfFile,
  RuntimeCniSettings,
  Snapshot,
} from '../../shared/model/snapshot';
import { known } from '../../shared/model/fact';
import { compareLoadOrder } from '../compare/diff';
import { loadOrderOf } from '../compare/load-order';
import { LOADABLE_EXTENSIONS, byteOrder, disabledOriginal } from '../conventions/cni-files';
import { basenameNode, dirnameNode, samePath } from '../conventions/node-paths';
import { byteOrderMarkError, cniExtension, parseCniConfig } from '../probes/cni-parse';
import type { RepairOffer } from '../rules/offers';

type Os = 'linux' | 'windows';

function isLoadable(os: Os, name: string): boolean {
  return (LOADABLE_EXTENSIONS as readonly string[]).includes(cniExtension(name, os));
}

/** A conf file as the probe would see `name` holding `text`. */
function fileFromText(os: Os, path: string, text: string): CniConfFile {
  const name = basenameNode(os, path);
  const loadable = isLoadable(os, name);
  const original = disabledOriginal(name);
  const base: CniConfFile = {
    name,
    path,
    kind: 'file',
    loadable,
    disabledVariant: original !== undefined,
    text,
    size: Buffer.byteLength(text),
  };
  if (!loadable && original === undefined) return base;
  const ext = loadable ? cniExtension(name, os) : cniExtension(original as string, os);
  const bom = byteOrderMarkError(Buffer.from(text, 'utf8'), ext);
  const by = (gen: '1.1' | '1.2' | '1.3') =>
    bom ?? parseCniConfig(text, ext, { gen, folder: { ok: true, plugins: [] } });
  const parse = by('1.3');
  const parseByLibcni: NonNullable<CniConfFile['parseByLibcni']> = {};
  for (const gen of ['1.1', '1.2'] as const) {
    const p = by(gen);
    if (JSON.stringify(p) !== JSON.stringify(parse)) parseByLibcni[gen] = known(p);
  }
  return {
    ...base,
    parse: known(parse),
    ...(Object.keys(parseByLibcni).length > 0 && { parseByLibcni }),
  };
}

/** The same file under a new name: the parse follows the extension it is parsed by. */
function renamed(os: Os, f: CniConfFile, to: string): CniConfFile {
  const name = basenameNode(os, to);
  const loadable = f.kind !== 'dir' && isLoadable(os, name);
  const original = disabledOriginal(name);
  const oldExt = f.loadable
    ? cniExtension(f.name, os)
    : cniExtension(disabledOriginal(f.name) ?? '', os);
  const newExt = loadable ? cniExtension(name, os) : cniExtension(original ?? '', os);
  if (oldExt !== newExt && f.text !== undefined && f.kind === 'file')
    return fileFromText(os, to, f.text);
  return { ...f, name, path: to, loadable, disabledVariant: original !== undefined };
}

interface Touched {
  dirs: Set<string>;
  runtimes: Set<string>;
}

function applyFiles(os: Os, dirs: CniConfDir[], plan: RepairPlan, touched: Touched): CniConfDir[] {
  // Each listed conf dir's entries, edited in place; an unlisted one stays as it was (unknown).
  const lists = dirs.map((d) => (d.entries.known ? [...d.entries.value] : undefined));
  const dirOf = (p: string) => dirs.findIndex((d) => samePath(os, d.path, dirnameNode(os, p)));
  const take = (i: number, path: string): CniConfFile | undefined => {
    const list = lists[i];
    const at = list ? list.findIndex((e) => samePath(os, e.path, path)) : -1;
    if (!list || at < 0) return undefined;
    touched.dirs.add(dirs[i]!.path);
    return list.splice(at, 1)[0];
  };
  const put = (i: number, f: CniConfFile) => {
    const list = lists[i];
    if (!list) return;
    take(i, f.path);
    list.push(f);
    touched.dirs.add(dirs[i]!.path);
  };
  for (const s of plan.steps) {
    if (s.kind === 'rename') {
      const moved = take(dirOf(s.from), s.from);
      if (moved) put(dirOf(s.to), renamed(os, moved, s.to));
    } else if (s.kind === 'write') {
      const i = dirOf(s.path);
      if (i >= 0) put(i, fileFromText(os, s.path, s.content));
    }
  }
  return dirs.map((d, i) => {
    const list = lists[i];
    if (!list || !touched.dirs.has(d.path)) return d;
    return { ...d, missing: false, entries: known(list.sort((a, b) => byteOrder(a.name, b.name))) };
  });
}

/** The runtime settings an offer changes, as the snapshot's facts would read after it. */
function applySettings(s: Snapshot, offer: RepairOffer, touched: Touched): Snapshot {
  const change = (
    runtime: 'containerd' | 'crio',
    fn: (c: RuntimeCniSettings) => RuntimeCniSettings,
  ): Snapshot => {
    const fact = s[runtime];
    if (!fact.known || !fact.value) return s;
    touched.runtimes.add(runtime);
    return { ...s, [runtime]: known({ ...fact.value, cni: fn(fact.value.cni) }) };
  };
  const source = 'the repair';
  switch (offer.kind) {
    case 'containerd-set-conf-dir':
      return change('containerd', (c) => ({ ...c, confDir: { value: offer.params.dir, source } }));
    case 'crio-set-network-dir':
      return change('crio', (c) => ({ ...c, confDir: { value: offer.params.dir, source } }));
    case 'containerd-add-bin-dir':
      return change('containerd', (c) => ({
        ...c,
        binDirs: { value: [...c.binDirs.value, offer.params.dir], source },
      }));
    case 'crio-add-plugin-dir':
      return change('crio', (c) => ({
        ...c,
        binDirs: { value: [...c.binDirs.value, offer.params.dir], source },
      }));
    case 'crio-set-default-network':
      return change('crio', (c) => {
        const { defaultNetwork: _unset, ...rest } = c;
        void _unset;
        return offer.params.network === ''
          ? rest
          : { ...rest, defaultNetwork: { value: offer.params.network, source } };
      });
    default:
      return s;
  }
}

/**
 * Each runtime whose conf dir or CNI settings the repair changes: its load order now and after the
 * repair, compared file by file. Empty when the repair touches neither.
 */
export function loadOrderAfterRepair(
  snapshot: Snapshot,
  plan: RepairPlan,
  offer: RepairOffer,
): LoadOrderComparison[] {
  const os = snapshot.node.os;
  const touched: Touched = { dirs: new Set(), runtimes: new Set() };
  const after: Snapshot = applySettings(
    { ...snapshot, confDirs: applyFiles(os, snapshot.confDirs, plan, touched) },
    offer,
    touched,
  );
  if (touched.dirs.size === 0 && touched.runtimes.size === 0) return [];
  const now = loadOrderOf(snapshot);
  const then = new Map(loadOrderOf(after).map((r) => [r.runtime, r]));
  return now
    .filter(
      (r) =>
        touched.runtimes.has(r.runtime) ||
        [...touched.dirs].some((d) => samePath(os, d, r.side.confDir)),
    )
    .map((r) => compareLoadOrder(r.runtime, r.label, r.side, then.get(r.runtime)?.side));
}
