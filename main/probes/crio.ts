/**
 * CRI-O: `crio.conf`, then every regular file under `crio.conf.d` in lexical order, last wins
 * (docs/knowledge/cri-o.md#the-crionetwork-table: backups like `10-crio.conf.bak` are applied too).
 */
import type { Fact } from '../../shared/model/fact';
import { known, unknownFact } from '../../shared/model/fact';
import type { ConfigError, CrioFacts, Located, ProcessFact } from '../../shared/model/snapshot';
import { joinNode } from '../conventions/node-paths';
import { flagValue } from './args';
import type { ProbeContext } from './context';
import {
  lookup,
  lookupString,
  lookupStrings,
  parseConfigFile,
  type ParsedConfigFile,
} from './config-chain';

const DEFAULT_CONFIG = '/etc/crio/crio.conf';
const DEFAULT_DROPINS = '/etc/crio/crio.conf.d';

export async function probeCrio(
  ctx: ProbeContext,
  processes: Fact<ProcessFact[]>,
): Promise<Fact<CrioFacts | null>> {
  if (ctx.os === 'windows') return known(null);
  const proc = processes.known ? processes.value.find((p) => p.name === 'crio') : undefined;
  const configPath = (proc && flagValue(proc.args, ['--config', '-c'])) ?? DEFAULT_CONFIG;
  const dropInDir = (proc && flagValue(proc.args, ['--config-dir', '-d'])) ?? DEFAULT_DROPINS;

  const main = await ctx.text(configPath);
  const dropins = await listDropIns(ctx, dropInDir, 0);
  if (!proc) {
    const mainExists = main.known && main.value !== null;
    if (!mainExists && dropins.length === 0) {
      if (!main.known && !processes.known) return unknownFact(`CRI-O: ${main.reason}`);
      return known(null);
    }
  }

  const configErrors: ConfigError[] = [];
  const files: CrioFacts['files'] = [];
  const parsed: ParsedConfigFile[] = [];
  for (const p of [configPath, ...dropins]) {
    const t = p === configPath ? main : await ctx.text(p);
    if (!t.known) {
      files.push({ path: p, file: unknownFact(t.reason), exists: true });
      continue;
    }
    files.push({
      path: p,
      file: t.value ? known(t.value) : unknownFact('missing'),
      exists: t.value !== null,
    });
    const pf = t.value ? parseConfigFile(t.value, configErrors) : undefined;
    if (pf) parsed.push(pf);
  }

  const net = ['crio', 'network'];
  const confDir = lookupString(parsed, [...net, 'network_dir']) ?? {
    value: '/etc/cni/net.d/',
    source: 'default',
  };
  const pluginDirs = lookupStrings(parsed, [...net, 'plugin_dirs']);
  const binDirs = withLegacyPluginDir(
    pluginDirs && pluginDirs.value.length > 0
      ? pluginDirs
      : { value: ['/opt/cni/bin/'], source: 'default' },
    lookup(parsed, [...net, 'plugin_dir']),
  );
  const defaultNetwork = lookupString(parsed, [...net, 'cni_default_network']);
  const cgroupManager = lookupString(parsed, ['crio', 'runtime', 'cgroup_manager']) ?? {
    value: 'systemd',
    source: 'default',
  };
  const listen = lookupString(parsed, ['crio', 'api', 'listen']);
  const address: Located<string> = listen ?? {
    value: '/var/run/crio/crio.sock',
    source: 'default',
  };

  return known({
    discoveredBy: proc ? 'process' : 'default-path',
    ...(proc?.pid !== undefined && { pid: proc.pid }),
    configPath,
    dropInDir,
    files,
    configErrors,
    cni: {
      confDir: { ...confDir, value: stripSlash(confDir.value) },
      binDirs: { ...binDirs, value: binDirs.value.map(stripSlash) },
      maxConfNum: { value: 1, source: 'default' },
      ...(defaultNetwork && defaultNetwork.value !== '' && { defaultNetwork }),
    },
    cgroupManager,
    address,
  });
}

/**
 * The deprecated `plugin_dir` (a string since CRI-O 1.15, a list in 1.14) is still honoured:
 * CRI-O appends it to `plugin_dirs` with a warning (docs/knowledge/cri-o.md#the-crionetwork-table), so a config carried forward
 * from an old release still finds the plugins there.
 */
function withLegacyPluginDir(
  dirs: Located<string[]>,
  legacy: Located<unknown> | undefined,
): Located<string[]> {
  const raw = legacy?.value;
  const extra =
    typeof raw === 'string'
      ? [raw]
      : Array.isArray(raw)
        ? raw.filter((x): x is string => typeof x === 'string')
        : [];
  const have = new Set(dirs.value.map(stripSlash));
  const added = extra.filter((d) => d !== '' && !have.has(stripSlash(d)));
  if (!legacy || added.length === 0) return dirs;
  // Quote the file that names a directory: plugin_dirs when set, else the legacy key.
  return { ...(dirs.source === 'default' ? legacy : dirs), value: [...dirs.value, ...added] };
}

function stripSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

/** Every regular file below the drop-in dir, recursively, in lexical order (filepath.Walk). */
async function listDropIns(ctx: ProbeContext, dir: string, depth: number): Promise<string[]> {
  if (depth > 8) return [];
  const r = await ctx.list(dir);
  if (!r.ok) return [];
  const out: string[] = [];
  for (const name of [...r.entries].sort()) {
    const p = joinNode(ctx.os, dir, name);
    const st = await ctx.stat(p);
    if (!st.ok) continue;
    if (st.type === 'dir') out.push(...(await listDropIns(ctx, p, depth + 1)));
    else if (st.type === 'file') out.push(p);
  }
  return out;
}
