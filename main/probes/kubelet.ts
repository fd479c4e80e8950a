/**
 * kubelet: its flags (process, kubeadm-flags.env, /etc/default|sysconfig/kubelet, systemd
 * drop-ins), its KubeletConfiguration, and the runtime endpoint it dials (docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from).
 */
import { parse as parseYaml } from 'yaml';
import type { Fact } from '../../shared/model/fact';
import { known, unknownFact } from '../../shared/model/fact';
import type {
  KubeletFacts,
  KubeletFlag,
  KubeletLaunch,
  Located,
  ProcessFact,
  ServiceFact,
  TextFile,
} from '../../shared/model/snapshot';
import { joinNode } from '../conventions/node-paths';
import { parseEnvFile, splitArgs } from './args';
import type { ProbeContext } from './context';
import { normalizeEndpoint } from '../conventions/endpoint';
import { probeWindowsKubeletLaunch } from './windows/kubelet-launch';

const LINUX_FLAG_FILES = [
  '/var/lib/kubelet/kubeadm-flags.env',
  '/etc/default/kubelet',
  '/etc/sysconfig/kubelet',
];
const LINUX_DROPIN_DIRS = [
  '/usr/lib/systemd/system/kubelet.service.d',
  '/etc/systemd/system/kubelet.service.d',
  '/lib/systemd/system/kubelet.service.d',
];
export const WINDOWS_FLAG_FILES = [
  'C:\\var\\lib\\kubelet\\kubeadm-flags.env',
  'C:\\k\\kubeadm-flags.env',
];
export const WINDOWS_KUBELET_CONFIG = 'C:\\var\\lib\\kubelet\\config.yaml';

/** Parse `--name=value` / `--name value` / `--bool` into flags with a source. */
export function parseFlags(args: readonly string[], source: string, line?: number): KubeletFlag[] {
  const out: KubeletFlag[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (!a.startsWith('--')) continue;
    const eq = a.indexOf('=');
    const base = { source, ...(line !== undefined && { line }) };
    if (eq > 0) out.push({ name: a.slice(2, eq), value: a.slice(eq + 1), ...base });
    else {
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith('-')) {
        out.push({ name: a.slice(2), value: next, ...base });
        i++;
      } else out.push({ name: a.slice(2), ...base });
    }
  }
  return out;
}

export async function probeKubelet(
  ctx: ProbeContext,
  processes: Fact<ProcessFact[]>,
  /** Asked only for the built-in default endpoint (a `--version` run on a live node). */
  kubeletVersion: () => Promise<string | undefined>,
  services?: Fact<ServiceFact[]>,
): Promise<Fact<KubeletFacts | null>> {
  const proc = processes.known
    ? processes.value.find((p) => p.name === 'kubelet' || p.name === 'kubelet.exe')
    : undefined;
  const files: TextFile[] = [];
  const fileFlags: KubeletFlag[] = [];
  const flagFiles = ctx.os === 'windows' ? WINDOWS_FLAG_FILES : LINUX_FLAG_FILES;
  for (const p of flagFiles) {
    const t = await ctx.text(p);
    if (!t.known || !t.value) continue;
    files.push(t.value);
    for (const e of parseEnvFile(t.value.text)) {
      if (/^KUBELET_(KUBEADM_ARGS|EXTRA_ARGS|ARGS)$/.test(e.key))
        fileFlags.push(...parseFlags(splitArgs(e.value), p, e.line));
    }
  }
  if (ctx.os === 'linux') {
    for (const dir of LINUX_DROPIN_DIRS) {
      const r = await ctx.list(dir);
      if (!r.ok) continue;
      for (const name of [...r.entries].sort().filter((n) => n.endsWith('.conf'))) {
        const p = joinNode('linux', dir, name);
        const t = await ctx.text(p);
        if (!t.known || !t.value) continue;
        files.push(t.value);
        t.value.text.split(/\r?\n/).forEach((raw, i) => {
          // Environment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"
          const m = /^\s*Environment="?([A-Z_]+)=([^"]*)"?\s*$/.exec(raw);
          if (m?.[2]) fileFlags.push(...parseFlags(splitArgs(m[2]), p, i + 1));
          const ex = /^\s*ExecStart=(\S+)\s+(.*)$/.exec(raw);
          if (ex?.[2])
            fileFlags.push(
              ...parseFlags(
                splitArgs(ex[2]).filter((a) => !a.startsWith('$')),
                p,
                i + 1,
              ),
            );
        });
      }
    }
  }

  // Windows: what starts the kubelet (its service, its start script). Read even while it runs:
  // the script's line is where a flag of the running process is set.
  const started =
    ctx.os === 'windows'
      ? await probeWindowsKubeletLaunch(ctx, services ?? unknownFact('services were not read'))
      : undefined;
  if (started) {
    files.push(...started.files);
    fileFlags.push(...started.flags.filter((f) => f.line !== undefined));
  }

  if (
    !proc &&
    files.length === 0 &&
    !started?.serviceInstalled &&
    started?.launch.source !== 'registry'
  ) {
    const cfg = await ctx.stat(
      ctx.os === 'windows' ? WINDOWS_KUBELET_CONFIG : '/var/lib/kubelet/config.yaml',
    );
    if (!cfg.ok)
      return processes.known || cfg.error === 'ENOENT'
        ? known(null)
        : unknownFact(`kubelet: ${cfg.message}`);
  }

  // The process command line is what the kubelet really runs with; file flags are where they come
  // from. Not running: the flags of what starts it (files; on Windows its script or registry).
  const flags = proc
    ? attributeSources(parseFlags(proc.args.slice(1), 'process:kubelet'), fileFlags)
    : started?.launch.source === 'registry'
      ? [...fileFlags, ...started.flags]
      : fileFlags;
  const launch: KubeletLaunch = proc
    ? { source: 'process', notes: [] }
    : started
      ? started.launch
      : files.length > 0
        ? { source: 'files', notes: [] }
        : { source: 'none', notes: ['no flag file or unit drop-in was found'] };
  const flag = (name: string): KubeletFlag | undefined =>
    [...flags].reverse().find((f) => f.name === name);

  const configFlag = flag('config');
  const configPath =
    configFlag?.value ??
    (ctx.os === 'windows' ? WINDOWS_KUBELET_CONFIG : '/var/lib/kubelet/config.yaml');
  const config = await readKubeletConfig(ctx, configPath);
  // Keep its text with the flag files so findings (cgroupDriver, endpoint) can quote the line.
  const configText = await ctx.text(configPath);
  if (configText.known && configText.value) files.push(configText.value);

  const epFlag = flag('container-runtime-endpoint');
  let endpoint: Located<string> | undefined = epFlag?.value
    ? {
        value: normalizeEndpoint(epFlag.value),
        source: epFlag.source,
        ...(epFlag.line !== undefined && { line: epFlag.line }),
      }
    : config.known && config.value.containerRuntimeEndpoint?.value
      ? {
          ...config.value.containerRuntimeEndpoint,
          value: normalizeEndpoint(config.value.containerRuntimeEndpoint.value),
        }
      : undefined;
  endpoint ??= defaultEndpoint(ctx.os, await kubeletVersion());

  const cgFlag = flag('cgroup-driver');
  const cgroupDriver: Located<string> | undefined = cgFlag?.value
    ? {
        value: cgFlag.value,
        source: cgFlag.source,
        ...(cgFlag.line !== undefined && { line: cgFlag.line }),
      }
    : config.known && config.value.cgroupDriver
      ? config.value.cgroupDriver
      : undefined;

  return known({
    running: proc !== undefined,
    ...(proc?.pid !== undefined && { pid: proc.pid }),
    flags,
    configPath,
    config,
    ...(endpoint && { endpoint }),
    ...(cgroupDriver && { cgroupDriver }),
    files,
    launch,
  });
}

/** Point process flags at the file line that sets them, when one does. */
function attributeSources(procFlags: KubeletFlag[], fileFlags: KubeletFlag[]): KubeletFlag[] {
  return procFlags.map((f) => {
    const from = fileFlags.find((ff) => ff.name === f.name && ff.value === f.value);
    return from
      ? { ...f, source: from.source, ...(from.line !== undefined && { line: from.line }) }
      : f;
  });
}

async function readKubeletConfig(
  ctx: ProbeContext,
  path: string,
): Promise<Fact<{ containerRuntimeEndpoint?: Located<string>; cgroupDriver?: Located<string> }>> {
  const t = await ctx.text(path);
  if (!t.known) return unknownFact(t.reason);
  if (!t.value) return known({});
  let doc: unknown;
  try {
    doc = parseYaml(t.value.text, { maxAliasCount: 100 });
  } catch (e) {
    return unknownFact(`${path} is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (typeof doc !== 'object' || doc === null) return known({});
  const rec = doc as Record<string, unknown>;
  const lineOf = (key: string): number | undefined => {
    const idx = t.value?.text.split(/\r?\n/).findIndex((l) => new RegExp(`^${key}\\s*:`).test(l));
    return idx !== undefined && idx >= 0 ? idx + 1 : undefined;
  };
  const loc = (key: string): Located<string> | undefined => {
    const v = rec[key];
    if (typeof v !== 'string' || v === '') return undefined;
    const line = lineOf(key);
    return { value: v, source: path, ...(line !== undefined && { line }) };
  };
  const ep = loc('containerRuntimeEndpoint');
  const cg = loc('cgroupDriver');
  return known({ ...(ep && { containerRuntimeEndpoint: ep }), ...(cg && { cgroupDriver: cg }) });
}

/** The kubelet's built-in default endpoint by release (docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from). */
function defaultEndpoint(
  os: 'linux' | 'windows',
  version: string | undefined,
): Located<string> | undefined {
  const m = version ? /v?(\d+)\.(\d+)/.exec(version) : null;
  const minor = m ? Number(m[1]) * 1000 + Number(m[2]) : undefined;
  if (minor === undefined) return undefined;
  if (minor < 1024)
    return {
      value: os === 'windows' ? 'npipe:////./pipe/dockershim' : 'unix:///var/run/dockershim.sock',
      source: 'default',
    };
  if (minor >= 1027)
    return {
      value:
        os === 'windows'
          ? 'npipe:////./pipe/containerd-containerd'
          : 'unix:///run/containerd/containerd.sock',
      source: 'default',
    };
  return undefined;
}
