/**
 * Parse a CNI config the way libcni does (docs/knowledge/cni-loading.md#how-libcni-finds-config-files): `.conflist` needs `name` and a
 * non-empty `plugins` list whose entries have `type`; `.conf`/`.json` need `type`. Error texts
 * follow libcni's so users can match them with their runtime logs.
 */
import type { CniParse, CniPluginRef } from '../../shared/model/snapshot';
import { decodeNetConf, nestingError, outOfRangeNumber, structField } from './go-json';

export function cniExtension(name: string, os: 'linux' | 'windows'): string {
  // Go's filepath.Ext: from the last dot, a leading one included (".conflist" is loaded), and
  // compared byte for byte on every OS, Windows too (conf.go@v1.3.0 L316-322; go-cni
  // opts.go@v1.1.12 L233): `10-calico.CONF` is never loaded.
  void os;
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot) : '';
}

function jsonErrorPosition(text: string, message: string): { line?: number; column?: number } {
  const m = /position (\d+)/.exec(message);
  if (!m) return {};
  const pos = Number(m[1]);
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  return { line, column: pos - before.lastIndexOf('\n') };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Plugin types the rules check (rules.md Definitions): type, ipam.type, flannel delegate.type. */
function pluginRefs(
  plugin: Record<string, unknown>,
  type: string,
  ipamType: string,
): CniPluginRef[] {
  const out: CniPluginRef[] = [];
  const ipamRaw = structField(plugin, 'ipam');
  const ipam = isObject(ipamRaw) ? ipamRaw : undefined;
  const { subnet, gateway } = addressing(plugin, ipam);
  if (type)
    out.push({ type, role: 'plugin', ...(subnet && { subnet }), ...(gateway && { gateway }) });
  if (ipamType) out.push({ type: ipamType, role: 'ipam' });
  if (type === 'flannel') {
    const delegate = isObject(plugin.delegate) ? plugin.delegate : undefined;
    out.push({ type: (delegate && str(delegate.type)) ?? 'bridge', role: 'delegate' });
  }
  return out;
}

function addressing(
  plugin: Record<string, unknown>,
  ipam: Record<string, unknown> | undefined,
): { subnet?: string; gateway?: string } {
  let subnet = ipam ? str(ipam.subnet) : undefined;
  let gateway = ipam ? str(ipam.gateway) : undefined;
  const ranges = ipam && Array.isArray(ipam.ranges) ? ipam.ranges : undefined;
  const first = ranges && Array.isArray(ranges[0]) ? ranges[0][0] : undefined;
  if (isObject(first)) {
    subnet ??= str(first.subnet);
    gateway ??= str(first.gateway);
  }
  // Windows nat/sdnbridge: `ipam.routes[].GW` carries the gateway (docs/knowledge/windows-cni-agents.md#flannel).
  const routes = ipam && Array.isArray(ipam.routes) ? ipam.routes : undefined;
  const r0 = routes?.[0];
  if (isObject(r0)) gateway ??= str(r0.GW) ?? str(r0.gw);
  subnet ??= str(plugin.subnet);
  return { ...(subnet && { subnet }), ...(gateway && { gateway }) };
}

/**
 * libcni hands the raw bytes to Go's json.Unmarshal, which rejects a byte-order mark (editors
 * and PowerShell 5.1 write one): the runtime fails on the file even though it looks fine.
 */
export function byteOrderMarkError(data: Uint8Array, ext: string): CniParse | undefined {
  const kind =
    data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf
      ? 'UTF-8'
      : data[0] === 0xff && data[1] === 0xfe
        ? 'UTF-16LE'
        : data[0] === 0xfe && data[1] === 0xff
          ? 'UTF-16BE'
          : undefined;
  if (!kind) return undefined;
  const prefix =
    ext === '.conflist' ? 'error parsing configuration list' : 'error parsing configuration';
  const ch = String.fromCharCode(data[0] as number);
  return {
    ok: false,
    error: `${prefix}: invalid character '${ch}' looking for beginning of value (the file starts with a ${kind} byte-order mark, which the runtime's JSON decoder does not accept)`,
    line: 1,
    column: 1,
  };
}

export type { LibcniGen } from '../conventions/cni-versions';
export { LIBCNI_GENS, compareCniVersions, parseCniVersion } from '../conventions/cni-versions';
import { compareCniVersions, parseCniVersion, type LibcniGen } from '../conventions/cni-versions';

/** Plugin configs libcni v1.3 adds from `<confdir>/<network name>/*.conf` (conf.go@v1.3.0 L68-90). */
export type FolderPlugins =
  { ok: true; plugins: { file: string; text: string }[] } | { ok: false; error: string };

export interface ParseOptions {
  gen?: LibcniGen;
  /** v1.3 only: the network's plugin folder as read; asked for by `wantsFolder`. */
  folder?: FolderPlugins;
}

type Doc =
  { ok: true; value: unknown } | { ok: false; error: string; line?: number; column?: number };

/**
 * The last text decoded and its documents (into a struct, into a map). A probe asks wantsFolder
 * and then parses the same text as libcni v1.1, v1.2 and v1.3: four decodes of the same bytes
 * were a fifth of a 2,000-conflist scan. The documents are only read here, never changed.
 */
let lastText: string | undefined;
let lastDocs: [Doc | undefined, Doc | undefined] = [undefined, undefined];

/** `json.Unmarshal` of a whole document: V8's parser plus Go's depth limit and float64 range. */
function goUnmarshal(text: string, intoMap: boolean): Doc {
  if (text !== lastText) {
    lastText = text;
    lastDocs = [undefined, undefined];
  }
  const i = intoMap ? 1 : 0;
  return (lastDocs[i] ??= decodeDocument(text, intoMap));
}

function decodeDocument(text: string, intoMap: boolean): Doc {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    // Go says "unexpected end of JSON input" for every truncated document (a half-written file,
    // docs/knowledge/log-signatures-linux.md#linux-4); V8 words it by the token it expected.
    const at = /position (\d+)/.exec(msg);
    const truncated =
      text.trim() === '' ||
      /end of JSON input/i.test(msg) ||
      (at !== null && Number(at[1]) >= text.trimEnd().length);
    return {
      ok: false,
      error: truncated ? 'unexpected end of JSON input' : msg,
      ...jsonErrorPosition(text, msg),
    };
  }
  const deep = nestingError(text);
  if (deep) return { ok: false, error: deep };
  if (intoMap && outOfRangeNumber(doc))
    return { ok: false, error: 'json: cannot unmarshal number into Go value of type float64' };
  return { ok: true, value: doc };
}

/**
 * json.Marshal of a map sorts keys (byte order), and a plugin is re-decoded from that order.
 * Only the plugin object and its struct-typed members (ipam, dns) are decoded field by field,
 * so two levels suffice (and a deep document cannot exhaust the stack here).
 */
function sortKeys(v: unknown, depth = 0): unknown {
  if (!isObject(v) || depth > 1) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    out[k] = sortKeys(v[k], depth + 1);
  return out;
}

type PluginConf = { ok: true; refs: CniPluginRef[]; type: string } | { ok: false; error: string };

/**
 * pluginConf(sortKeys(plugin)) per plugin object of a cached document: the three libcni
 * generations decode the same plugins alike. Callers get their own copies of the refs.
 */
const listPluginConfs = new WeakMap<object, PluginConf>();

function listPluginConf(plugin: unknown): PluginConf {
  if (typeof plugin !== 'object' || plugin === null) return pluginConf(sortKeys(plugin));
  let p = listPluginConfs.get(plugin);
  if (p === undefined) listPluginConfs.set(plugin, (p = pluginConf(sortKeys(plugin))));
  return p.ok ? { ...p, refs: p.refs.map((r) => ({ ...r })) } : p;
}

/** libcni ConfFromBytes / NetworkPluginConfFromBytes on one plugin object. */
function pluginConf(obj: unknown, prefix = 'error parsing configuration'): PluginConf {
  // null decodes into a struct as a no-op: the type stays empty.
  const o = isObject(obj) ? obj : {};
  if (obj !== null && !isObject(obj))
    return {
      ok: false,
      error: `${prefix}: json: cannot unmarshal ${Array.isArray(obj) ? 'array' : typeof obj} into Go value of type types.NetConf`,
    };
  const d = decodeNetConf(o);
  if ('error' in d) return { ok: false, error: `${prefix}: ${d.error}` };
  if (d.type === '') return { ok: false, error: `${prefix}: missing 'type'` };
  return { ok: true, refs: pluginRefs(o, d.type, d.ipamType), type: d.type };
}

type Bool = { ok: true; value: boolean } | { ok: false; error: string };

/** `readBool` of conf.go@v1.3.0 L162-188: a JSON bool, or "true"/"false" in any case. */
function readBool(
  raw: Record<string, unknown>,
  key: string,
  prefix: string,
  strings: boolean,
): Bool {
  if (!(key in raw)) return { ok: true, value: false };
  const v = raw[key];
  if (typeof v === 'boolean') return { ok: true, value: v };
  if (typeof v !== 'string' || !strings)
    return {
      ok: false,
      error: strings
        ? `${prefix}: invalid type ${goKind(v)} for ${key}`
        : `${prefix}: invalid ${key} type ${goKind(v)}`,
    };
  const s = v.toLowerCase();
  if (s === 'true' || s === 'false') return { ok: true, value: s === 'true' };
  return { ok: false, error: `${prefix}: invalid value "${s}" for ${key}` };
}

function goKind(v: unknown): string {
  if (v === null) return '<nil>';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  return typeof v;
}

/** Does this conflist make libcni v1.3 read `<confdir>/<name>/`? (and under which name) */
export function wantsFolder(text: string): string | undefined {
  const d = goUnmarshal(text, true);
  if (!d.ok || !isObject(d.value) || typeof d.value.name !== 'string') return undefined;
  const inl = readBool(d.value, 'loadOnlyInlinedPlugins', '', true);
  return inl.ok && !inl.value ? d.value.name : undefined;
}

/** ConfListFromBytes of the libcni generation `gen` (conf.go@v1.1.2 L60-130, @v1.3.0 L92-245). */
function confList(text: string, gen: LibcniGen, folder: FolderPlugins | undefined): CniParse {
  const prefix = 'error parsing configuration list';
  const d = goUnmarshal(text, true);
  if (!d.ok) return { ...d, error: `${prefix}: ${d.error}` };
  if (!isObject(d.value) && d.value !== null)
    return {
      ok: false,
      error: `${prefix}: json: cannot unmarshal ${Array.isArray(d.value) ? 'array' : typeof d.value} into Go value of type map[string]interface {}`,
    };
  const raw = isObject(d.value) ? d.value : {};
  if (!('name' in raw)) return { ok: false, error: `${prefix}: no name` };
  if (typeof raw.name !== 'string')
    return { ok: false, error: `${prefix}: invalid name type ${goKind(raw.name)}` };
  let cniVersion: string | undefined;
  if ('cniVersion' in raw) {
    if (typeof raw.cniVersion !== 'string')
      return { ok: false, error: `${prefix}: invalid cniVersion type ${goKind(raw.cniVersion)}` };
    cniVersion = raw.cniVersion;
  }
  if (gen !== '1.1' && 'cniVersions' in raw) {
    const rvs = raw.cniVersions;
    if (!Array.isArray(rvs))
      return { ok: false, error: `${prefix}: invalid type for cniVersions: []interface {}` };
    const current: [number, number, number] = [1, 1, 0];
    const vs: [number, number, number][] = [];
    for (let i = 0; i < rvs.length; i++) {
      const v: unknown = rvs[i];
      if (typeof v !== 'string')
        return {
          ok: false,
          error: `${prefix}: invalid type for cniVersions index ${i}: ${goKind(v)}`,
        };
      const p = parseCniVersion(v);
      if (!p)
        return { ok: false, error: `${prefix}: invalid cniVersions entry ${v} at index ${i}` };
      if (compareCniVersions(p, current) <= 0) vs.push(p);
    }
    if (cniVersion) {
      const p = parseCniVersion(cniVersion);
      if (!p) return { ok: false, error: `${prefix}: invalid cniVersion ${cniVersion}` };
      if (compareCniVersions(p, current) <= 0) vs.push(p);
    }
    vs.sort(compareCniVersions);
    const top = vs[vs.length - 1];
    if (top) cniVersion = top.join('.');
  }
  const bools =
    gen === '1.1'
      ? ['disableCheck']
      : gen === '1.2'
        ? ['disableCheck', 'disableGC']
        : ['disableCheck', 'disableGC', 'loadOnlyInlinedPlugins'];
  let inlinedOnly = false;
  for (const k of bools) {
    const b = readBool(raw, k, prefix, gen !== '1.1');
    if (!b.ok) return b;
    if (k === 'loadOnlyInlinedPlugins') inlinedOnly = b.value;
  }
  const plugins: CniPluginRef[] = [];
  let count = 0;
  if (!('plugins' in raw)) {
    if (gen !== '1.3') return { ok: false, error: `${prefix}: no 'plugins' key` };
    if (inlinedOnly)
      return {
        ok: false,
        error: `${prefix}: \`loadOnlyInlinedPlugins\` is true, and no 'plugins' key`,
      };
  } else {
    if (!Array.isArray(raw.plugins))
      return { ok: false, error: `${prefix}: invalid 'plugins' type ${goKind(raw.plugins)}` };
    if (raw.plugins.length === 0) return { ok: false, error: `${prefix}: no plugins in list` };
    for (let i = 0; i < raw.plugins.length; i++) {
      const p = listPluginConf(raw.plugins[i]);
      if (!p.ok) return { ok: false, error: `failed to parse plugin config ${i}: ${p.error}` };
      plugins.push(...p.refs);
      count++;
    }
  }
  let fromFolder: string[] | undefined;
  if (gen === '1.3' && !inlinedOnly) {
    if (!folder) return { ok: false, error: 'plugin folder not read' };
    if (!folder.ok) return { ok: false, error: folder.error };
    fromFolder = [];
    for (const f of folder.plugins) {
      const d2 = goUnmarshal(f.text, false);
      if (!d2.ok) return { ok: false, error: `error parsing configuration: ${d2.error}` };
      const p = pluginConf(d2.value);
      if (!p.ok) return p;
      plugins.push(...p.refs);
      fromFolder.push(f.file);
      count++;
    }
  }
  if (count === 0) return { ok: false, error: 'no plugin configs found' };
  return {
    ok: true,
    format: 'conflist',
    network: raw.name,
    ...(cniVersion !== undefined && { cniVersion }),
    plugins,
    ...(fromFolder && fromFolder.length > 0 && { folderPlugins: fromFolder }),
  };
}

/**
 * Parse a CNI config as libcni `gen` does: `.conflist` by ConfListFromFile, `.conf`/`.json` by
 * ConfFromFile then ConfListFromConf (what go-cni and ocicni call).
 */
export function parseCniConfig(text: string, ext: string, opts: ParseOptions = {}): CniParse {
  const gen = opts.gen ?? '1.3';
  if (ext === '.conflist') return confList(text, gen, opts.folder);
  const prefix = 'error parsing configuration';
  const d = goUnmarshal(text, false);
  if (!d.ok) return { ...d, error: `${prefix}: ${d.error}` };
  const p = pluginConf(d.value);
  if (!p.ok) {
    const hint =
      isObject(d.value) && Array.isArray(d.value.plugins)
        ? ' (this is a config list saved with a single-config extension; rename it to .conflist)'
        : '';
    return { ok: false, error: `${p.error}${hint}` };
  }
  // ConfListFromConf re-decodes the bytes into a map (number range) and re-parses the plugin
  // from sorted keys (conf.go@v1.3.0 L423-446).
  const again = goUnmarshal(text, true);
  if (!again.ok) return { ...again, error: again.error };
  const p2 = listPluginConf(again.value);
  if (!p2.ok) return { ok: false, error: `failed to parse plugin config 0: ${p2.error}` };
  const doc = d.value as Record<string, unknown>;
  const nc = decodeNetConf(doc);
  const network = 'error' in nc ? '' : nc.name;
  const cniVersion = 'error' in nc ? '' : nc.cniVersion;
  return {
    ok: true,
    format: 'conf',
    network,
    ...(structField(doc, 'cniVersion') !== undefined && { cniVersion }),
    plugins: p.refs,
  };
}

/** Moved to main/conventions/cni-files.ts; re-exported for code written before the move. */
export { DISABLED_SUFFIXES, LOADABLE_EXTENSIONS, disabledOriginal } from '../conventions/cni-files';
