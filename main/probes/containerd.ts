/**
 * containerd: where it runs from, which config it reads (main file + imports), and what that
 * config means for CRI and CNI across config versions 1, 2 and 3 (docs/knowledge/containerd.md#config-versions).
 */
import type { Fact } from '../../shared/model/fact';
import { known, unknownFact } from '../../shared/model/fact';
import type {
  ConfigError,
  ContainerdFacts,
  Located,
  ProcessFact,
  TomlKeyRef,
} from '../../shared/model/snapshot';
import { dirnameNode, resolveNode, basenameNode, joinNode } from '../conventions/node-paths';
import { flagValue } from './args';
import { endpointKey, normalizeEndpoint } from '../conventions/endpoint';
import type { ProbeContext } from './context';
import {
  dotted,
  lookup,
  lookupBool,
  lookupNumber,
  lookupString,
  lookupStrings,
  parseConfigFile,
  type ParsedConfigFile,
} from './config-chain';

/** Where containerd's config lives for each flavour (docs/knowledge/node-layouts.md#distributions-with-other-paths). */
export const CONTAINERD_LOCATIONS = {
  linux: [
    {
      flavor: 'containerd',
      discoveredBy: 'default-path',
      config: '/etc/containerd/config.toml',
      address: '/run/containerd/containerd.sock',
    },
    {
      flavor: 'k3s',
      discoveredBy: 'k3s',
      config: '/var/lib/rancher/k3s/agent/etc/containerd/config.toml',
      address: '/run/k3s/containerd/containerd.sock',
    },
    {
      flavor: 'rke2',
      discoveredBy: 'rke2',
      config: '/var/lib/rancher/rke2/agent/etc/containerd/config.toml',
      address: '/run/k3s/containerd/containerd.sock',
    },
  ],
  windows: [
    {
      flavor: 'containerd',
      discoveredBy: 'windows-default',
      config: 'C:\\Program Files\\containerd\\config.toml',
      address: '\\\\.\\pipe\\containerd-containerd',
    },
  ],
} as const;

/** CRI plugin table per config version (docs/knowledge/containerd.md#where-the-cri-and-cni-keys-live). */
export function criTables(version: number): { runtime: string[]; server: string[] } {
  if (version >= 3)
    return {
      runtime: ['plugins', 'io.containerd.cri.v1.runtime'],
      server: ['plugins', 'io.containerd.grpc.v1.cri'],
    };
  if (version === 2)
    return {
      runtime: ['plugins', 'io.containerd.grpc.v1.cri'],
      server: ['plugins', 'io.containerd.grpc.v1.cri'],
    };
  return { runtime: ['plugins', 'cri'], server: ['plugins', 'cri'] };
}

const MAX_IMPORTS = 64;

/**
 * The containerd process to describe: the one listening where the kubelet dials when several run
 * (a node with Docker's containerd and k3s's, or a test instance beside the system one).
 */
function pickProcess(
  processes: Fact<ProcessFact[]>,
  kubeletEndpoint: string | undefined,
): ProcessFact | undefined {
  if (!processes.known) return undefined;
  const all = processes.value.filter((p) => p.name === 'containerd' || p.name === 'containerd.exe');
  if (all.length <= 1 || !kubeletEndpoint) return all[0];
  const want = endpointKey(kubeletEndpoint);
  return (
    all.find((p) => {
      const a = flagValue(p.args, ['--address', '-a']);
      return a !== undefined && endpointKey(normalizeEndpoint(a)) === want;
    }) ?? all[0]
  );
}

export async function probeContainerd(
  ctx: ProbeContext,
  processes: Fact<ProcessFact[]>,
  kubeletEndpoint?: string,
): Promise<Fact<ContainerdFacts | null>> {
  const os = ctx.os;
  const proc = pickProcess(processes, kubeletEndpoint);
  const locations = CONTAINERD_LOCATIONS[os];

  let configPath: string;
  let flavor: ContainerdFacts['flavor'] = 'containerd';
  let discoveredBy: ContainerdFacts['discoveredBy'];
  let addressFlag: string | undefined;
  if (proc) {
    discoveredBy = 'process';
    configPath = flagValue(proc.args, ['--config', '-c']) ?? (locations[0]?.config as string);
    addressFlag = flagValue(proc.args, ['--address', '-a']);
    const match = locations.find((l) => configPath.toLowerCase() === l.config.toLowerCase());
    if (match) flavor = match.flavor;
  } else {
    // Not running (or the process table is unknown): a config file on disk means containerd is
    // installed here and would read it on start.
    let found: (typeof locations)[number] | undefined;
    let sawUnknown: string | undefined;
    for (const l of locations) {
      const st = await ctx.stat(l.config);
      if (st.ok) {
        found = l;
        break;
      }
      if (st.error !== 'ENOENT') sawUnknown ??= st.message;
    }
    if (!found) {
      if (sawUnknown && !processes.known) return unknownFact(`containerd: ${sawUnknown}`);
      return known(null);
    }
    configPath = found.config;
    flavor = found.flavor;
    discoveredBy = found.discoveredBy;
  }

  const configErrors: ConfigError[] = [];
  const files: ContainerdFacts['files'] = [];
  const parsed: ParsedConfigFile[] = [];
  const main = await ctx.text(configPath);
  if (!main.known) return unknownFact(`containerd config ${configPath}: ${main.reason}`);
  files.push({
    path: configPath,
    file: main.value ? known(main.value) : unknownFact('missing'),
    exists: main.value !== null,
  });
  const mainParsed = main.value ? parseConfigFile(main.value, configErrors) : undefined;
  if (mainParsed) parsed.push(mainParsed);

  // imports: breadth-first, later files override earlier ones, cycles skipped (docs/knowledge/containerd.md#imports-and-drop-ins).
  const queue: { path: string; from: ParsedConfigFile }[] = [];
  const seen = new Set([configPath]);
  const enqueue = async (from: ParsedConfigFile): Promise<void> => {
    const imports = from.value.imports;
    if (!Array.isArray(imports)) return;
    for (const raw of imports) {
      if (typeof raw !== 'string') continue;
      const abs = resolveNode(os, dirnameNode(os, from.path), raw);
      for (const p of raw.includes('*') ? await expandGlob(ctx, abs) : [abs])
        queue.push({ path: p, from });
    }
  };
  if (mainParsed) await enqueue(mainParsed);
  while (queue.length > 0 && files.length < MAX_IMPORTS) {
    const next = queue.shift() as { path: string };
    if (seen.has(next.path)) continue;
    seen.add(next.path);
    const t = await ctx.text(next.path);
    if (!t.known) {
      files.push({ path: next.path, file: unknownFact(t.reason), exists: true });
      continue;
    }
    files.push({
      path: next.path,
      file: t.value ? known(t.value) : unknownFact('missing'),
      exists: t.value !== null,
    });
    const p = t.value ? parseConfigFile(t.value, configErrors) : undefined;
    if (p) {
      parsed.push(p);
      await enqueue(p);
    }
  }

  const versionLoc = mainParsed ? lookupNumber([mainParsed], ['version']) : undefined;
  const configVersion = versionLoc?.value ?? 1;
  const tables = criTables(configVersion);
  const cniTable = [...tables.runtime, 'cni'];
  const defaults =
    os === 'windows'
      ? {
          confDir: 'C:\\Program Files\\containerd\\cni\\conf',
          binDir: 'C:\\Program Files\\containerd\\cni\\bin',
        }
      : { confDir: '/etc/cni/net.d', binDir: '/opt/cni/bin' };

  const confDir = lookupString(parsed, [...cniTable, 'conf_dir']) ?? {
    value: defaults.confDir,
    source: 'default',
  };
  const binDirs = lookupStrings(parsed, [...cniTable, 'bin_dirs']);
  const binDir = lookupString(parsed, [...cniTable, 'bin_dir']);
  // 2.1+ prefers bin_dirs; bin_dir is migrated only when bin_dirs is empty (docs/knowledge/containerd.md#where-the-cri-and-cni-keys-live).
  const effectiveBinDirs: Located<string[]> =
    binDirs && binDirs.value.length > 0
      ? binDirs
      : binDir
        ? { ...binDir, value: [binDir.value] }
        : { value: [defaults.binDir], source: 'default' };
  const maxConfNum = lookupNumber(parsed, [...cniTable, 'max_conf_num']) ?? {
    value: 1,
    source: 'default',
  };
  const confTemplate = lookupString(parsed, [...cniTable, 'conf_template']);

  const defaultRuntime =
    lookupString(parsed, [...tables.runtime, 'containerd', 'default_runtime_name'])?.value ??
    'runc';
  const systemdCgroup = lookupBool(parsed, [
    ...tables.runtime,
    'containerd',
    'runtimes',
    defaultRuntime,
    'options',
    'SystemdCgroup',
  ]);

  const addressFromConfig = lookupString(parsed, ['grpc', 'address']);
  const defaultAddress =
    locations.find((l) => l.flavor === flavor)?.address ?? (locations[0]?.address as string);
  const address: Located<string> =
    addressFlag !== undefined
      ? { value: addressFlag, source: 'process:containerd' }
      : (addressFromConfig ?? { value: defaultAddress, source: 'default' });

  const disabledPlugins: Located<string>[] = [];
  for (const f of parsed) {
    const v = f.value.disabled_plugins;
    if (!Array.isArray(v)) continue;
    const line = f.locateLine(['disabled_plugins']);
    for (const item of v)
      if (typeof item === 'string')
        disabledPlugins.push({ value: item, source: f.path, ...(line !== undefined && { line }) });
  }

  validateVersionRules(parsed, configVersion, configErrors);

  return known({
    discoveredBy,
    flavor,
    ...(proc?.pid !== undefined && { pid: proc.pid }),
    configPath,
    files,
    configErrors,
    configVersion,
    disabledPlugins,
    cni: {
      confDir,
      binDirs: effectiveBinDirs,
      maxConfNum,
      ...(confTemplate && { confTemplate }),
    },
    ...(systemdCgroup && { systemdCgroup }),
    address,
    wrongSchemaKeys: wrongSchemaKeys(parsed, configVersion),
  });
}

/** Values containerd refuses at start (docs/knowledge/containerd.md#config-versions, docs/knowledge/containerd.md#disabled_plugins). */
function validateVersionRules(
  files: readonly ParsedConfigFile[],
  version: number,
  errors: ConfigError[],
): void {
  if (version >= 2) {
    for (const f of files) {
      const v = f.value.disabled_plugins;
      if (!Array.isArray(v)) continue;
      for (const item of v) {
        if (typeof item === 'string' && !item.includes('.')) {
          const line = f.locateLine(['disabled_plugins']);
          errors.push({
            path: f.path,
            message: `invalid disabled plugin URI "${item}" expect io.containerd.x.vx (a version ${version} config needs full plugin URIs; containerd refuses to start)`,
            ...(line !== undefined && { line }),
          });
        }
      }
    }
  }
  if (version > 4 || version < 0 || !Number.isInteger(version)) {
    const line = files[0]?.locateLine(['version']);
    errors.push({
      path: files[0]?.path ?? '',
      message: `unsupported containerd config version ${version}`,
      ...(line !== undefined && { line }),
    });
  }
}

/** CRI/CNI keys under a plugin table this config version does not read (docs/knowledge/containerd.md#unknown-keys-and-keys-of-the-wrong-version). */
function wrongSchemaKeys(
  files: readonly ParsedConfigFile[],
  version: number,
): (TomlKeyRef & { belongsIn: string })[] {
  const out: (TomlKeyRef & { belongsIn: string })[] = [];
  const right = criTables(version).runtime;
  const candidates: { table: string[]; keys: string[] }[] =
    version >= 3
      ? [
          {
            table: ['plugins', 'io.containerd.grpc.v1.cri'],
            keys: ['cni', 'containerd', 'sandbox_image', 'registry'],
          },
        ]
      : version === 2
        ? [{ table: ['plugins', 'cri'], keys: ['cni', 'containerd', 'sandbox_image'] }]
        : [
            {
              table: ['plugins', 'io.containerd.grpc.v1.cri'],
              keys: ['cni', 'containerd', 'sandbox_image'],
            },
            { table: ['plugins', 'io.containerd.cri.v1.runtime'], keys: ['cni', 'containerd'] },
          ];
  for (const f of files) {
    for (const c of candidates) {
      for (const k of c.keys) {
        const keyPath = [...c.table, k];
        const hit = lookup([f], keyPath);
        if (!hit) continue;
        const line = f.locateLine(keyPath) ?? firstLeafLine(f, keyPath);
        const target =
          k === 'sandbox_image' || k === 'registry'
            ? version >= 3
              ? ['plugins', 'io.containerd.cri.v1.images']
              : right
            : right;
        out.push({
          key: dotted(keyPath),
          path: f.path,
          line: line ?? 1,
          belongsIn: dotted([...target, k]),
        });
      }
    }
  }
  return out;
}

function firstLeafLine(f: ParsedConfigFile, prefix: readonly string[]): number | undefined {
  const walk = (v: unknown, p: string[]): number | undefined => {
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      for (const [k, child] of Object.entries(v)) {
        const l = walk(child, [...p, k]);
        if (l !== undefined) return l;
      }
      return undefined;
    }
    return f.locateLine(p);
  };
  return walk(lookup([f], prefix)?.value, [...prefix]);
}

/** `filepath.Glob` for the common case: a `*` pattern in the last segment. */
async function expandGlob(ctx: ProbeContext, pattern: string): Promise<string[]> {
  const dir = dirnameNode(ctx.os, pattern);
  const base = basenameNode(ctx.os, pattern);
  if (dir.includes('*')) return [];
  const r = await ctx.list(dir);
  if (!r.ok) return [];
  const re = new RegExp(
    `^${base
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
  return r.entries
    .filter((n) => re.test(n))
    .sort()
    .map((n) => joinNode(ctx.os, dir, n));
}
