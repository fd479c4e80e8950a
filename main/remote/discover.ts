/**
 * Which nodes this machine can reach (`cni-doctor targets`, the UI's Targets screen): node
 * containers of kind, minikube and k3d from the container engines present (by their labels), the
 * nodes of the kubeconfig contexts (that needs an API server: without one, the context is listed
 * with the reason), the hosts of ~/.ssh/config, and the target used last.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  CONTAINER_ENGINES,
  formatTarget,
  parseTarget,
  type ContainerEngine,
} from '../../shared/target';
import { runLocal } from './local-run';

export interface DiscoveredTarget {
  target: string;
  /** What it is: "kind cluster dev (control-plane)", "ssh host from ~/.ssh/config". */
  what: string;
  source: 'kind' | 'minikube' | 'k3d' | 'kubeconfig' | 'ssh-config' | 'remembered';
}

export interface Discovery {
  targets: DiscoveredTarget[];
  /** Sources that could not be asked, and why (no docker, no API server, …). */
  notes: string[];
}

/** Label → what the node belongs to (kind, minikube and k3d set these on their node containers). */
const LABELS: {
  key: string;
  source: DiscoveredTarget['source'];
  words: (v: string, role?: string) => string;
}[] = [
  {
    key: 'io.x-k8s.kind.cluster',
    source: 'kind',
    words: (v, r) => `kind cluster ${v}${r ? ` (${r})` : ''}`,
  },
  { key: 'name.minikube.sigs.k8s.io', source: 'minikube', words: (v) => `minikube profile ${v}` },
  { key: 'k3d.cluster', source: 'k3d', words: (v, r) => `k3d cluster ${v}${r ? ` (${r})` : ''}` },
];
const ROLE: Record<string, string> = {
  kind: 'io.x-k8s.kind.role',
  k3d: 'k3d.role',
};

export interface DiscoverOptions {
  engines?: readonly ContainerEngine[];
  sshConfig?: string;
  kubectl?: string;
  /** File holding the target used last (rememberTarget). */
  rememberFile?: string;
  timeoutMs?: number;
}

export async function discoverTargets(o: DiscoverOptions = {}): Promise<Discovery> {
  const notes: string[] = [];
  const timeout = o.timeoutMs ?? 10_000;
  const [containers, kube, ssh, last] = await Promise.all([
    Promise.all((o.engines ?? CONTAINER_ENGINES).map((e) => engineNodes(e, timeout, notes))),
    kubeNodes(o.kubectl ?? 'kubectl', timeout, notes),
    sshHosts(o.sshConfig ?? path.join(os.homedir(), '.ssh', 'config'), notes),
    rememberedTarget(o.rememberFile),
  ]);
  const targets = [...containers.flat(), ...kube, ...ssh];
  if (last && !targets.some((t) => t.target === last))
    targets.unshift({ target: last, what: 'used last time', source: 'remembered' });
  else if (last) {
    const i = targets.findIndex((t) => t.target === last);
    const [hit] = targets.splice(i, 1);
    if (hit) targets.unshift({ ...hit, what: `${hit.what} — used last time` });
  }
  return { targets, notes };
}

async function engineNodes(
  engine: ContainerEngine,
  timeout: number,
  notes: string[],
): Promise<DiscoveredTarget[]> {
  const names = new Set<string>();
  for (const l of LABELS) {
    const r = await runLocal(
      engine,
      ['ps', '--filter', `label=${l.key}`, '--format', '{{.Names}}'],
      timeout,
    );
    if (r.code === 127 || /ENOENT|not found/i.test(r.stderr)) {
      notes.push(`${engine}: not installed`);
      return [];
    }
    if (r.code !== 0) {
      notes.push(`${engine}: ${r.stderr.trim().split('\n')[0]?.slice(0, 200) ?? `exit ${r.code}`}`);
      return [];
    }
    for (const n of r.stdout.split('\n')) if (n.trim()) names.add(n.trim());
  }
  const out: DiscoveredTarget[] = [];
  for (const name of names) {
    const parsed = parseTarget(`container:${engine}/${name}`);
    if (!parsed.ok) continue; // a name no engine would accept: never offered
    const keys = [...LABELS.map((l) => l.key), ...Object.values(ROLE)];
    const fmt = keys.map((k) => `{{index .Config.Labels ${JSON.stringify(k)}}}`).join('\t');
    const r = await runLocal(engine, ['inspect', '--format', fmt, name], timeout);
    const values = r.stdout
      .replace(/\n$/, '')
      .split('\t')
      .map((v) => (v === '<no value>' ? '' : v));
    const label = LABELS.findIndex((_, i) => (values[i] ?? '') !== '');
    const hit = LABELS[label];
    if (!hit) continue;
    const roleKey = ROLE[hit.source];
    const role = roleKey ? values[keys.indexOf(roleKey)] : undefined;
    out.push({
      target: formatTarget(parsed.target),
      what: `${hit.words(values[label] ?? '', role || undefined)} via ${engine}`,
      source: hit.source,
    });
  }
  return out;
}

async function kubeNodes(
  kubectl: string,
  timeout: number,
  notes: string[],
): Promise<DiscoveredTarget[]> {
  const ctx = await runLocal(kubectl, ['config', 'get-contexts', '-o', 'name'], timeout);
  if (ctx.code === 127 || /ENOENT/.test(ctx.stderr)) {
    notes.push('kubectl: not installed (kubeconfig nodes need kubectl and an API server)');
    return [];
  }
  const contexts = ctx.stdout
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  if (contexts.length === 0) {
    notes.push('kubectl: no kubeconfig contexts');
    return [];
  }
  const out: DiscoveredTarget[] = [];
  for (const c of contexts.slice(0, 20)) {
    const r = await runLocal(
      kubectl,
      ['--context', c, 'get', 'nodes', '-o', 'name', '--request-timeout=5s'],
      timeout,
    );
    if (r.code !== 0) {
      notes.push(
        `kubectl context ${c}: nodes need a reachable API server (${r.stderr.trim().split('\n')[0]?.slice(0, 160)})`,
      );
      continue;
    }
    for (const line of r.stdout.split('\n')) {
      const node = line.trim().replace(/^node\//, '');
      const parsed = parseTarget(`kubectl:${c}/${node}`);
      if (node && parsed.ok)
        out.push({
          target: formatTarget(parsed.target),
          what: `node of context ${c} (debug pod)`,
          source: 'kubeconfig',
        });
    }
  }
  return out;
}

/** `Host` names of an ssh_config (patterns with * ? ! are rules, not hosts; Include is not followed). */
export function sshConfigHosts(text: string): string[] {
  const hosts: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*Host\s+(.+?)\s*$/i.exec(line);
    if (!m) continue;
    for (const h of (m[1] ?? '').split(/\s+/))
      if (h && !/[*?!]/.test(h) && !hosts.includes(h)) hosts.push(h);
  }
  return hosts;
}

async function sshHosts(file: string, notes: string[]): Promise<DiscoveredTarget[]> {
  let text: string;
  try {
    const fh = await fsp.open(file, 'r');
    try {
      text = (await fh.read(Buffer.alloc(256 * 1024), 0, 256 * 1024, 0)).buffer.toString('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    notes.push(`ssh: no ${file}`);
    return [];
  }
  const out: DiscoveredTarget[] = [];
  for (const h of sshConfigHosts(text.replace(/\0+$/, ''))) {
    const parsed = parseTarget(`ssh:${h}`);
    if (parsed.ok)
      out.push({
        target: formatTarget(parsed.target),
        what: `host in ${file}`,
        source: 'ssh-config',
      });
  }
  return out;
}

export function defaultRememberFile(): string {
  const base = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'cni-doctor', 'last-target');
}

/** The target used last, if the file holds a valid one (it is re-validated: a file is input). */
export async function rememberedTarget(file = defaultRememberFile()): Promise<string | undefined> {
  const text = await fsp.readFile(file, 'utf8').catch(() => '');
  const r = parseTarget(text.trim().slice(0, 1024));
  return r.ok && text.trim() !== '' ? formatTarget(r.target) : undefined;
}

export async function rememberTarget(target: string, file = defaultRememberFile()): Promise<void> {
  const r = parseTarget(target);
  if (!r.ok) return;
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  await fsp.writeFile(tmp, `${formatTarget(r.target)}\n`, { mode: 0o600 });
  await fsp.rename(tmp, file);
}
