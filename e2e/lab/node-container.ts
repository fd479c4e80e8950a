// startNodeContainer(): a Kubernetes-node-like container run by Debian's podman, the way kind runs
// its nodes — privileged, containerd at its default paths inside (/etc/containerd/config.toml,
// /run/containerd/containerd.sock, /etc/cni/net.d, CNI plugins at /opt/cni/bin), a kubelet
// stand-in naming the runtime endpoint, and optionally a real sshd. No registry is reachable, so
// the root file system is built here: the host's /usr (containerd, runc, sh, sshd, node) mounted
// read-only, or — the busybox variant — only busybox, containerd, runc and libraries (no bash, no
// crictl, no socat), like a k3s node.
//
// podman flags that work on these machines (lab-feasibility): --runtime runc (crun refuses the
// hybrid cgroups), lowered --ulimit values (podman's defaults are refused), --rootfs DIR.
// --network host: the sshd listens on this machine's loopback, and the pods' bridges are named
// after the lab (cnd<id>…) and removed at teardown like the other lab's.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  rmdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCriClient, type CriClient } from '../../main/cri/client';
import { mustRun, run, sleep, type ExecResult } from './exec';
import { buildPauseImage } from './pause-image';
import { podSandboxConfig, type RunPodResult } from './pods';
import { CriCallError } from '../../main/cri/client';
import type { LabPaths } from './paths';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const NODE_SOCKET = '/run/containerd/containerd.sock';

export type NodeVariant = 'full' | 'busybox';

export interface NodeContainerOptions {
  name: string;
  variant?: NodeVariant;
  /** /etc/containerd/config.toml inside the node; gets the node's paths (nodeConfig). */
  configToml: (n: NodeNames) => string;
  /** Files of /etc/cni/net.d inside the node (name → content). */
  confFiles: (n: NodeNames) => Record<string, string>;
  /** Start a real sshd on 127.0.0.1 with a throwaway host key and client key. */
  ssh?: boolean;
}

/** Names the scenario's files use: bridges and subnets owned by this node. */
export interface NodeNames {
  id: string;
  bridge(n: number): string;
  subnet(n: number): string;
}

export interface NodeSsh {
  port: number;
  /** An ssh client configuration naming this node as host `cnd-lab-node`. */
  configFile: string;
  target: string;
}

export interface NodeContainer {
  readonly name: string;
  readonly names: NodeNames;
  readonly rootfs: string;
  readonly target: string;
  readonly pid: number;
  readonly ssh?: NodeSsh;
  exec(argv: string[], timeoutMs?: number): Promise<ExecResult>;
  /** The node's containerd, reached from this machine through /proc/PID/root. */
  cri(): CriClient;
  runPod(name: string): Promise<RunPodResult>;
  /** `cni-doctor scan --json` run INSIDE the node with the node's own node binary. */
  localScan(): Promise<unknown>;
  /** Every file under the node's /etc/cni and /etc/containerd: name → bytes (base64). */
  configFiles(): Record<string, string>;
  stop(): Promise<void>;
}

let standIn: string | undefined;
let pauseTar: string | undefined;
const buildDir = (): string => {
  const d = join(tmpdir(), 'cnd-node-build');
  mkdirSync(d, { recursive: true });
  return d;
};

/** The kubelet stand-in: answers --version like a kubelet and otherwise sleeps (static C). */
async function kubeletStandIn(): Promise<string> {
  if (standIn && existsSync(standIn)) return standIn;
  const dir = buildDir();
  const src = join(dir, 'kubelet.c');
  writeFileSync(
    src,
    `#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--version") == 0) { puts("Kubernetes v1.29.4-lab"); return 0; }
  for (;;) pause();
}
`,
  );
  const out = join(dir, 'kubelet');
  await mustRun('gcc', ['-static', '-O2', '-o', out, src], 60_000);
  standIn = out;
  return out;
}

async function pauseImage(): Promise<string> {
  if (pauseTar && existsSync(pauseTar)) return pauseTar;
  const dir = join(buildDir(), 'pause');
  mkdirSync(dir, { recursive: true });
  pauseTar = await buildPauseImage(dir);
  return pauseTar;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

const HOST_TOP = ['bin', 'lib', 'lib64', 'sbin'];

function mirrorTopLevel(rootfs: string, mounts: string[]): void {
  // Where the host has /bin → usr/bin (Debian 12's merged /usr), the node gets the same link;
  // a real directory is bind-mounted read-only.
  for (const top of HOST_TOP) {
    const host = `/${top}`;
    if (!existsSync(host)) continue;
    if (lstatSync(host).isSymbolicLink()) symlinkSync(readlinkSync(host), join(rootfs, top));
    else {
      mkdirSync(join(rootfs, top), { recursive: true });
      mounts.push('-v', `${host}:/${top}:ro`);
    }
  }
}

function busyboxTree(rootfs: string, mounts: string[]): void {
  // Libraries only from the host (/usr/lib, /usr/lib64); the programs a node needs are bound one
  // by one, and every tool is busybox.
  mkdirSync(join(rootfs, 'usr/lib'), { recursive: true });
  mkdirSync(join(rootfs, 'usr/bin'), { recursive: true });
  mounts.push('-v', '/usr/lib:/usr/lib:ro');
  if (existsSync('/usr/lib64')) {
    mkdirSync(join(rootfs, 'usr/lib64'), { recursive: true });
    mounts.push('-v', '/usr/lib64:/usr/lib64:ro');
  }
  symlinkSync('usr/lib', join(rootfs, 'lib'));
  if (existsSync('/usr/lib64')) symlinkSync('usr/lib64', join(rootfs, 'lib64'));
  for (const [host, node] of [
    ['/usr/bin/containerd', '/usr/bin/containerd'],
    ['/usr/bin/containerd-shim-runc-v2', '/usr/bin/containerd-shim-runc-v2'],
    ['/usr/bin/ctr', '/usr/bin/ctr'],
    ['/usr/sbin/runc', '/usr/bin/runc'],
  ] as const) {
    writeFileSync(join(rootfs, node), '');
    mounts.push('-v', `${host}:${node}:ro`);
  }
  const bin = join(rootfs, 'bin');
  mkdirSync(bin);
  mkdirSync(join(rootfs, 'sbin'));
  const busybox = ['/usr/bin/busybox', '/bin/busybox'].find((p) => existsSync(p));
  if (!busybox) throw new Error('busybox is missing: apt-get install -y busybox');
  copyFileSync(busybox, join(bin, 'busybox'));
  chmodSync(join(bin, 'busybox'), 0o755);
  for (const applet of [
    'sh',
    'head',
    'tail',
    'base64',
    'od',
    'wc',
    'cat',
    'ls',
    'id',
    'uname',
    'mkdir',
    'sleep',
    'timeout',
    'readlink',
    'rm',
    'mv',
  ])
    symlinkSync('busybox', join(bin, applet));
}

export async function startNodeContainer(o: NodeContainerOptions): Promise<NodeContainer> {
  const variant = o.variant ?? 'full';
  // Built (once) before anything is created, so a build failure leaves nothing behind.
  const [kubelet, pause] = await Promise.all([kubeletStandIn(), pauseImage()]);
  const id = randomBytes(3).toString('hex');
  const name = `cnd-node-${id}`;
  const dir = mkdtempSync(join(tmpdir(), 'cnd-node-'));
  const rootfs = join(dir, 'rootfs');
  const names: NodeNames = {
    id,
    bridge: (n) => `cnd${id}${n}`,
    subnet: (n) => `10.89.${(parseInt(id, 16) % 40) * 5 + n}.0/24`,
  };
  for (const d of [
    'etc/containerd',
    'etc/cni/net.d',
    'etc/ssh',
    'var/lib',
    'var/log',
    'run/sshd',
    'tmp',
    'proc',
    'sys',
    'dev',
    'root',
    'opt/cni/bin',
    'opt/lab',
    'cni-doctor',
  ])
    mkdirSync(join(rootfs, d), { recursive: true });
  chmodSync(join(rootfs, 'tmp'), 0o1777);
  chmodSync(join(rootfs, 'run/sshd'), 0o755);
  const mounts: string[] = ['-v', '/usr/lib/cni:/opt/cni/bin:ro', '-v', `${REPO}:/cni-doctor:ro`];
  if (variant === 'full') {
    mkdirSync(join(rootfs, 'usr'));
    mounts.push('-v', '/usr:/usr:ro');
    mirrorTopLevel(rootfs, mounts);
  } else busyboxTree(rootfs, mounts);

  writeFileSync(join(rootfs, 'etc/hostname'), `${name}\n`);
  writeFileSync(
    join(rootfs, 'etc/os-release'),
    `PRETTY_NAME="cni-doctor lab node (${variant})"\nID=cnd-lab\n`,
  );
  writeFileSync(
    join(rootfs, 'etc/passwd'),
    'root:x:0:0:root:/root:/bin/sh\nsshd:x:101:65534::/run/sshd:/usr/sbin/nologin\n',
  );
  writeFileSync(join(rootfs, 'etc/group'), 'root:x:0:\nnogroup:x:65534:\n');
  writeFileSync(join(rootfs, 'etc/shadow'), 'root:*:19000:0:99999:7:::\nsshd:*:19000::::::\n');
  chmodSync(join(rootfs, 'etc/shadow'), 0o600);
  writeFileSync(join(rootfs, 'etc/containerd/config.toml'), o.configToml(names));
  for (const [f, text] of Object.entries(o.confFiles(names)))
    writeFileSync(join(rootfs, 'etc/cni/net.d', f), text);
  copyFileSync(kubelet, join(rootfs, 'opt/lab/kubelet'));
  chmodSync(join(rootfs, 'opt/lab/kubelet'), 0o755);
  copyFileSync(pause, join(rootfs, 'opt/lab/pause.tar'));

  let ssh: NodeSsh | undefined;
  if (o.ssh) {
    if (variant !== 'full') throw new Error('the busybox node has no sshd');
    ssh = await sshFiles(dir, rootfs);
  }
  writeFileSync(
    join(rootfs, 'init.sh'),
    `#!/bin/sh
mkdir -p /run/containerd /var/log /tmp/pods
/usr/bin/containerd --config /etc/containerd/config.toml >>/var/log/containerd.log 2>&1 &
/opt/lab/kubelet --container-runtime-endpoint=unix://${NODE_SOCKET} --cgroup-driver=cgroupfs &
if [ -f /etc/ssh/lab_sshd_config ]; then /usr/sbin/sshd -f /etc/ssh/lab_sshd_config -E /var/log/sshd.log; fi
exec sleep 2147483647
`,
  );
  chmodSync(join(rootfs, 'init.sh'), 0o755);

  await mustRun(
    'podman',
    [
      'run',
      '-d',
      '--name',
      name,
      '--label',
      'io.x-k8s.kind.cluster=cnd-lab',
      '--label',
      'io.x-k8s.kind.role=control-plane',
      '--runtime',
      'runc',
      '--privileged',
      '--ulimit',
      'nofile=16384:16384',
      '--ulimit',
      'nproc=4096:4096',
      '--network',
      'host',
      '--hostname',
      name,
      ...mounts,
      '--rootfs',
      rootfs,
      '/init.sh',
    ],
    60_000,
  );
  const stopAll = async (): Promise<void> => {
    await run('podman', ['rm', '-f', '-t', '0', name], 60_000);
    for (let n = 0; n < 10; n++) await run('ip', ['link', 'del', names.bridge(n)], 5000);
    removeCgroups(id);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const pidText = (
      await mustRun('podman', ['inspect', '--format', '{{.State.Pid}}', name])
    ).stdout.trim();
    const pid = Number(pidText);
    const socket = `/proc/${pid}/root${NODE_SOCKET}`;
    // containerd is up when ctr answers; CRI may be disabled on purpose, so ctr, not CRI.
    // Far above the normal case (~1 s), so a loaded machine is slow, not red.
    const deadline = Date.now() + 90_000;
    for (;;) {
      const r = await run('podman', ['exec', name, 'ctr', 'version'], 10_000);
      if (r.code === 0) break;
      if (Date.now() > deadline)
        throw new Error(
          `still waiting, after 90 s, for containerd in ${name} to answer ctr version: ${readLog(rootfs, 'containerd.log').slice(-1500)}`,
        );
      await sleep(100);
    }
    await mustRun(
      'podman',
      ['exec', name, 'ctr', '-n', 'k8s.io', 'images', 'import', '/opt/lab/pause.tar'],
      60_000,
    );
    if (ssh) await waitForPort(ssh.port, rootfs);
    let client: CriClient | undefined;
    const paths = { podLogDir: '/tmp/pods', cgroupParent: `/cni-doctor-lab-${id}` } as LabPaths;
    const sandboxes: string[] = [];
    return {
      name,
      names,
      rootfs,
      target: `container:podman/${name}`,
      pid,
      ...(ssh && { ssh }),
      exec: (argv, timeoutMs = 60_000) => run('podman', ['exec', name, ...argv], timeoutMs),
      cri: () => (client ??= createCriClient(`unix://${socket}`, { deadlineMs: 30_000 })),
      async runPod(pod) {
        const started = performance.now();
        const cri = (client ??= createCriClient(`unix://${socket}`, { deadlineMs: 30_000 }));
        try {
          const sandboxId = await cri.runPodSandbox(podSandboxConfig(paths, pod));
          sandboxes.push(sandboxId);
          const status = await cri.podSandboxStatus(sandboxId);
          return { ok: true, ip: status.ip, sandboxId, ms: performance.now() - started };
        } catch (e) {
          if (!(e instanceof CriCallError)) throw e;
          const sandboxId = /sandbox "([0-9a-f]{64})"/.exec(e.details)?.[1];
          if (sandboxId) sandboxes.push(sandboxId);
          const error = { code: e.code, message: e.details };
          return { ok: false, error, ms: performance.now() - started };
        }
      },
      async localScan() {
        const r = await run(
          'podman',
          [
            'exec',
            name,
            '/usr/bin/node',
            '/cni-doctor/bin/cni-doctor.mjs',
            'scan',
            '--json',
            '--fail-on',
            'never',
          ],
          120_000,
        );
        if (r.code !== 0) throw new Error(`the scan inside ${name} failed: ${r.stderr}`);
        return JSON.parse(r.stdout) as unknown;
      },
      configFiles: () => snapshotFiles(rootfs, ['etc/cni', 'etc/containerd']),
      async stop() {
        if (client) {
          for (const s of sandboxes.reverse()) {
            await client.stopPodSandbox(s).catch(() => undefined);
            await client.removePodSandbox(s).catch(() => undefined);
          }
          client.close();
        }
        await stopAll();
      },
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

function readLog(rootfs: string, file: string): string {
  try {
    return readFileSync(join(rootfs, 'var/log', file), 'utf8');
  } catch {
    return '(no log)';
  }
}

export async function waitForPort(port: number, rootfs: string): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline)
      throw new Error(
        `still waiting, after 60 s, for sshd to listen on ${port}: ${readLog(rootfs, 'sshd.log')}`,
      );
    await sleep(50);
  }
}

/** Host key, authorized client key, sshd config inside the node; client config outside. */
export async function sshFiles(dir: string, rootfs: string): Promise<NodeSsh> {
  const port = await freePort();
  const hostKey = join(rootfs, 'etc/ssh/lab_host_ed25519');
  const clientKey = join(dir, 'client_ed25519');
  await mustRun('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  await mustRun('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', clientKey]);
  writeFileSync(
    join(rootfs, 'etc/ssh/lab_authorized_keys'),
    readFileSync(`${clientKey}.pub`, 'utf8'),
  );
  writeFileSync(
    join(rootfs, 'etc/ssh/lab_sshd_config'),
    `Port ${port}
ListenAddress 127.0.0.1
HostKey /etc/ssh/lab_host_ed25519
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
AuthorizedKeysFile /etc/ssh/lab_authorized_keys
UsePAM no
StrictModes no
PidFile /run/sshd-lab.pid
`,
  );
  const hostPub = readFileSync(`${hostKey}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
  writeFileSync(join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${hostPub}\n`);
  const configFile = join(dir, 'ssh_config');
  writeFileSync(
    configFile,
    `Host cnd-lab-node
  HostName 127.0.0.1
  Port ${port}
  User root
  IdentityFile ${clientKey}
  IdentitiesOnly yes
  IdentityAgent none
  UserKnownHostsFile ${join(dir, 'known_hosts')}
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
`,
  );
  return { port, configFile, target: 'ssh:cnd-lab-node' };
}

function snapshotFiles(rootfs: string, dirs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    const abs = join(rootfs, rel);
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const r = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(r);
      else out[r] = readFileSync(join(rootfs, r)).toString('base64');
    }
  };
  for (const d of dirs) walk(d);
  return out;
}

function removeCgroups(id: string): void {
  const base = '/sys/fs/cgroup';
  let controllers: string[];
  try {
    controllers = readdirSync(base);
  } catch {
    return;
  }
  for (const c of controllers) {
    const d = join(base, c, `cni-doctor-lab-${id}`);
    if (!existsSync(d)) continue;
    // Children first (one per sandbox), then the lab's parent.
    try {
      for (const e of readdirSync(d, { withFileTypes: true }))
        if (e.isDirectory()) rmdirSync(join(d, e.name));
      rmdirSync(d);
    } catch {
      // A cgroup still holding a process is left for the host cleanup to report.
    }
  }
}
