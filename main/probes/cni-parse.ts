/**
 * Parse a CNI config the way libcni does (docs/knowledge/cni-loading.md#how-libcni-finds-config-files): `.conflist` needs `name` and a
 * non-empty `plugins` list whose entries have `type`; `.conf`/`.json` need `type`. Error texts
 * follow libcni's so users can match them with their runtime logs.
 */
import type { CniParse, CniPluginRef } from '../../shared/model/snapshot';

export function cniExtension(name: string, os: 'linux' | 'windows'): string {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot) : '';
  // Go's filepath.Ext is case-sensitive; Windows file names are not, and tools that write
  // `.CONF` on Windows are read by containerd there (docs/knowledge/windows-containerd.md#which-config-wins).
  return os === 'windows' ? ext.toLowerCase() : ext;
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
function pluginRefs(plugin: Record<string, unknown>): CniPluginRef[] {
  const out: CniPluginRef[] = [];
  const type = str(plugin.type);
  const ipam = isObject(plugin.ipam) ? plugin.ipam : undefined;
  const { subnet, gateway } = addressing(plugin, ipam);
  if (type)
    out.push({ type, role: 'plugin', ...(subnet && { subnet }), ...(gateway && { gateway }) });
  const ipamType = ipam ? str(ipam.type) : undefined;
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

export function parseCniConfig(text: string, ext: string): CniParse {
  const isList = ext === '.conflist';
  const prefix = isList ? 'error parsing configuration list' : 'error parsing configuration';
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    // Go says "unexpected end of JSON input" for every truncated document (a half-written file,
    // docs/knowledge/log-signatures-linux.md#linux-4); V8 words it by the token it expected. Use Go's, so it matches the logs.
    const at = /position (\d+)/.exec(msg);
    const truncated =
      text.trim() === '' ||
      /end of JSON input/i.test(msg) ||
      (at !== null && Number(at[1]) >= text.trimEnd().length);
    const human = truncated ? 'unexpected end of JSON input' : msg;
    return { ok: false, error: `${prefix}: ${human}`, ...jsonErrorPosition(text, msg) };
  }
  if (!isObject(doc)) return { ok: false, error: `${prefix}: not a JSON object` };
  const cniVersion = str(doc.cniVersion);
  if (isList) {
    if (doc.name === undefined) return { ok: false, error: `${prefix}: no name` };
    if (typeof doc.name !== 'string')
      return { ok: false, error: `${prefix}: invalid name type ${typeof doc.name}` };
    if (doc.cniVersion !== undefined && typeof doc.cniVersion !== 'string')
      return { ok: false, error: `${prefix}: invalid cniVersion type ${typeof doc.cniVersion}` };
    if (doc.plugins === undefined) return { ok: false, error: `${prefix}: no 'plugins' key` };
    if (!Array.isArray(doc.plugins))
      return { ok: false, error: `${prefix}: invalid 'plugins' type ${typeof doc.plugins}` };
    if (doc.plugins.length === 0) return { ok: false, error: `${prefix}: no plugins in list` };
    const plugins: CniPluginRef[] = [];
    for (let i = 0; i < doc.plugins.length; i++) {
      const p: unknown = doc.plugins[i];
      if (!isObject(p) || typeof p.type !== 'string' || p.type === '') {
        return {
          ok: false,
          error: `failed to parse plugin config ${i}: error parsing configuration: missing 'type'`,
        };
      }
      plugins.push(...pluginRefs(p));
    }
    return {
      ok: true,
      format: 'conflist',
      network: doc.name,
      ...(cniVersion !== undefined && { cniVersion }),
      plugins,
    };
  }
  if (typeof doc.type !== 'string' || doc.type === '') {
    const hint = Array.isArray(doc.plugins)
      ? ' (this is a config list saved with a single-config extension; rename it to .conflist)'
      : '';
    return { ok: false, error: `${prefix}: missing 'type'${hint}` };
  }
  const network = str(doc.name);
  return {
    ok: true,
    format: 'conf',
    ...(network !== undefined && { network }),
    ...(cniVersion !== undefined && { cniVersion }),
    plugins: pluginRefs(doc),
  };
}

/** Moved to main/conventions/cni-files.ts; re-exported for code written before the move. */
export { DISABLED_SUFFIXES, LOADABLE_EXTENSIONS, disabledOriginal } from '../conventions/cni-files';
