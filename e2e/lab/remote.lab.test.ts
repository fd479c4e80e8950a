// Reaching nodes where they are (issue 12): node containers run by podman, scanned through
// `podman exec` and through a real sshd, compared with a scan run inside the node itself; the
// repair applied through the container, proved by a real pod, undone byte for byte, and a
// SIGKILLed repair recovered; the busybox-only node scanned without its CRI answers.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/model/report';
import { startNodeContainer, type NodeContainer } from './node-container';
import { SCENARIOS, type Scenario } from './node-scenarios';
import { run } from './exec';

const CLI = fileURLToPath(new URL('../../bin/cni-doctor.mjs', import.meta.url));
const LATE_BUILTINS = fileURLToPath(
  new URL('../../app/cli/launch/late-builtins.cjs', import.meta.url),
);
const CRASH_ENTRY = fileURLToPath(new URL('../../app/cli/testing/crash-entry.ts', import.meta.url));

beforeAll(async () => {
  const missing = ['podman', 'sshd', 'ssh', 'socat', 'busybox'].filter(
    (t) => ![`/usr/bin/${t}`, `/usr/sbin/${t}`, `/bin/${t}`].some((p) => existsSync(p)),
  );
  if (missing.length)
    throw new Error(
      `the remote lab needs ${missing.join(', ')}: apt-get install -y podman openssh-server openssh-client socat busybox`,
    );
  if (!existsSync(fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url))))
    throw new Error('the remote lab runs the built CLI inside the node: npm run build first');
});

interface Cli {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: NodeJS.ProcessEnv = {}, entry = CLI): Promise<Cli> {
  const argv = entry === CLI ? [CLI, ...args] : ['--import', 'tsx', entry, ...args];
  return new Promise((resolve) => {
    const p = spawn(process.execPath, argv, { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    p.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Findings and check statuses: what "the same diagnosis" means (e2e/lab/doctor-scan.ts). */
function signature(r: Report): { findings: string[]; checks: Record<string, string> } {
  return {
    findings: r.findings.map((f) => `${f.severity} ${f.id}`).sort(),
    checks: Object.fromEntries(r.checks.map((c) => [c.rule, c.status])),
  };
}

async function scanJson(args: string[]): Promise<Report> {
  const r = await cli(['scan', '--json', '--fail-on', 'never', ...args]);
  if (r.code !== 0) throw new Error(`scan ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Report;
}

async function withNode(
  s: Scenario,
  opts: { ssh?: boolean; variant?: 'full' | 'busybox' },
  body: (n: NodeContainer) => Promise<void>,
): Promise<void> {
  const node = await startNodeContainer({
    name: s.rule,
    configToml: s.configToml,
    confFiles: s.confFiles,
    ...opts,
  });
  started.push(node.name);
  try {
    await body(node);
  } finally {
    await node.stop();
  }
}

describe.each(Object.entries(SCENARIOS))('node container, scenario %s', (_name, s) => {
  it('scan --target container:… and ssh:… give the local scan inside the node', async () => {
    await withNode(s, { ssh: true }, async (node) => {
      const inside = (await node.localScan()) as Report;
      expect(inside.findings.map((f) => f.rule)).toContain(s.rule);
      const sessions = (): Promise<string> =>
        run('podman', ['inspect', node.name, '--format', '{{len .ExecIDs}}']).then((r) =>
          r.stdout.trim(),
        );
      const before = await sessions();
      // The launcher starts the agent's client before the CLI loads (early-agent.ts); a command
      // that then fails before reaching the node ends it, and it removes its exec session.
      const refused = await cli(['scan', '--target', node.target, '--bundle', '/nonexistent']);
      expect(refused.code, refused.stderr).toBe(2);
      const viaContainer = await scanJson(['--target', node.target]);
      // The agent's `podman exec` client was let remove its exec session: a killed client
      // leaves it in the container for good, and every later exec gets slower.
      expect(await sessions(), 'exec sessions left in the node container').toBe(before);
      const ssh = node.ssh as NonNullable<NodeContainer['ssh']>;
      const viaSsh = await scanJson(['--target', ssh.target, '--ssh-config', ssh.configFile]);
      expect(signature(viaContainer)).toEqual(signature(inside));
      expect(signature(viaSsh)).toEqual(signature(inside));
      // Every report names its target and transport, and how CRI was asked: one program on the
      // node for the whole scan, CRI included (the agent's run is handed to socat at its end).
      expect(viaContainer.target).toMatchObject({
        target: node.target,
        transport: 'podman exec',
        roundTrips: 1,
      });
      expect(viaContainer.target?.cri).toMatch(/socat/);
      expect(viaSsh.target).toMatchObject({ target: ssh.target, transport: 'ssh', roundTrips: 1 });
      expect(viaContainer.node.hostname).toBe(node.name);

      // Nothing a scan of a node needs is compiled from source after the launcher's V8 flags:
      // NODE_COMMAND_BUILTINS are loaded before them. (`process` is tiny; fs's recursive rm
      // loads internal/fs/rimraf, which only rmSync itself can load.)
      const probed = await cli(['scan', '--json', '--fail-on', 'never', '--target', node.target], {
        NODE_OPTIONS: `--require ${LATE_BUILTINS}`,
      });
      const late = /late built-ins: (.*)$/m.exec(probed.stderr)?.[1];
      expect(late, probed.stderr).toBeDefined();
      const compiled = (JSON.parse(late as string) as string[] | null) ?? [];
      expect(compiled.filter((m) => m !== 'process' && m !== 'internal/fs/rimraf')).toEqual([]);
    });
  });
});

describe('repairs through the node container', () => {
  const s = SCENARIOS.shadowing;
  const repairOf = (r: Report): string => {
    const f = r.findings.find((x) => x.rule === s.rule);
    const id = f?.repairs?.find((x) => x.id.includes('disable-files'))?.id;
    if (!id) throw new Error(`no disable-files repair in ${JSON.stringify(f?.repairs)}`);
    return id;
  };

  it('fix --yes repairs the default shadowing the cluster CNI; a real pod gets the cluster subnet; undo restores every file', async () => {
    await withNode(s, {}, async (node) => {
      const before = node.configFiles();
      const wrong = await node.runPod('before');
      expect(wrong.ok && wrong.ip).toMatch(/^10\.89\./);
      expect(wrong.ok && inSubnet(wrong.ip, node.names.subnet(2))).toBe(true);

      const id = repairOf(await scanJson(['--target', node.target]));
      const preview = await cli(['fix', id, '--target', node.target]);
      expect(preview.code, preview.stderr).toBe(0);
      expect(preview.stdout).toContain('10-containerd-net.conflist');
      const fix = await cli(['fix', id, '--target', node.target, '--yes', '--json']);
      expect(fix.code, fix.stderr).toBe(0);
      const applied = JSON.parse(fix.stdout) as { status: string; entry: string };
      expect(applied.status).toBe('applied');
      // The journal is the node's own, inside the node.
      expect(existsSync(`${node.rootfs}/var/lib/cni-doctor`)).toBe(true);

      const right = await node.runPod('after');
      expect(right.ok, JSON.stringify(right)).toBe(true);
      expect(right.ok && inSubnet(right.ip, node.names.subnet(1))).toBe(true);

      const history = await cli(['history', '--target', node.target, '--json']);
      expect(history.code, history.stderr).toBe(0);
      expect(history.stdout).toContain(applied.entry);
      const undo = await cli(['undo', applied.entry, '--target', node.target, '--yes']);
      expect(undo.code, undo.stderr).toBe(0);
      expect(node.configFiles()).toEqual(before);
    });
  });

  it('a repair SIGKILLed midway leaves the node recoverable by the next command', async () => {
    await withNode(s, {}, async (node) => {
      const before = node.configFiles();
      const id = repairOf(await scanJson(['--target', node.target]));
      const points = await cli(
        ['fix', id, '--target', node.target, '--yes'],
        {
          CNI_DOCTOR_LIST_POINTS: '1',
          CNI_DOCTOR_CRASH_AT: 'step-1:done',
        },
        CRASH_ENTRY,
      );
      expect(points.code).toBeNull(); // killed by the signal, not exited
      expect(points.stderr).toContain('transition step-1:done');
      expect(node.configFiles()).not.toEqual(before);
      // Every program the killed run started in the node (the lock holder, file operations)
      // ends with it: the engine closes their stdin when the exec client is gone.
      await waitForNoProgramsOf(node);
      // The next command names the same target: it finds the unfinished entry on the node and
      // rolls it back before doing anything else.
      const next = await cli(['history', '--target', node.target, '--json']);
      expect(next.code, next.stderr).toBe(0);
      expect(next.stderr).toMatch(/recover|rolled back/i);
      expect(node.configFiles()).toEqual(before);
    });
  });
});

describe('busybox-only node (no bash, no crictl, no socat)', () => {
  it('scans through podman exec with CRI answers unknown and the reason given', async () => {
    await withNode(SCENARIOS.shadowing, { variant: 'busybox' }, async (node) => {
      const noBash = await node.exec(['sh', '-c', 'command -v bash || echo none']);
      expect(noBash.stdout.trim()).toBe('none');
      const r = await scanJson(['--target', node.target]);
      expect(r.findings.map((f) => f.rule)).toContain('cni.conf.shadowed-by-default');
      const cri = r.checks.filter(
        (c) => c.rule.startsWith('cri.endpoint.unreachable') || c.rule === 'cri.network.not-ready',
      );
      expect(cri.length).toBeGreaterThan(0);
      for (const c of cri) {
        expect(c.status).toBe('unknown');
        expect(JSON.stringify(c)).toMatch(/no socat/);
      }
      expect(r.target?.cri).toMatch(/not asked: the node has no socat/);
      expect(r.target?.cri).toMatch(/neither crictl nor k3s crictl/);
    });
  });
});

/** Polls the node's process table until no program of ours runs there (generous: 20 s). */
async function waitForNoProgramsOf(node: NodeContainer): Promise<void> {
  const ours = (): Promise<string[]> =>
    node
      .exec(['sh', '-c', 'for f in /proc/[0-9]*/cmdline; do tr "\\0" " " <"$f"; echo; done'])
      .then((r) => r.stdout.split('\n').filter((l) => /cni-doctor-(lock|files)/.test(l)));
  const deadline = Date.now() + 20_000;
  let left = await ours();
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    left = await ours();
  }
  expect(left, 'programs of the killed run still running in the node after 20 s').toEqual([]);
}

function inSubnet(ip: string, cidr: string): boolean {
  const [net] = cidr.split('/');
  return ip.split('.').slice(0, 3).join('.') === (net as string).split('.').slice(0, 3).join('.');
}

/** The node containers this file started: none may outlive it (others on the machine may). */
const started: string[] = [];

afterAll(async () => {
  const left = await run('podman', ['ps', '-a', '--format', '{{.Names}}']);
  const names = new Set(left.stdout.split('\n').map((l) => l.trim()));
  expect(started.length).toBeGreaterThan(0);
  expect(started.filter((n) => names.has(n))).toEqual([]);
});

describe('repairs over ssh (file operations, journal, backups and lock on the node through ssh)', () => {
  const s = SCENARIOS.shadowing;
  const over = (node: NodeContainer): string[] => {
    const ssh = node.ssh as NonNullable<NodeContainer['ssh']>;
    return ['--target', ssh.target, '--ssh-config', ssh.configFile];
  };
  const repairOf = (r: Report): string => {
    const id = r.findings
      .find((x) => x.rule === s.rule)
      ?.repairs?.find((x) => x.id.includes('disable-files'))?.id;
    if (!id) throw new Error('no disable-files repair');
    return id;
  };

  /** The private folders ssh transports keep their master's control socket in. */
  const sshControlDirs = (): string[] =>
    readdirSync(tmpdir()).filter((n) => n.startsWith('cni-doctor-ssh-'));

  it('fix --yes over ssh repairs the node; a real pod gets the cluster subnet; undo restores every file', async () => {
    await withNode(s, { ssh: true }, async (node) => {
      const before = node.configFiles();
      const dirsBefore = sshControlDirs();
      const id = repairOf(await scanJson(over(node)));
      const preview = await cli(['fix', id, ...over(node)]);
      expect(preview.code, preview.stderr).toBe(0);
      expect(preview.stdout).toContain('10-containerd-net.conflist');
      expect(node.configFiles()).toEqual(before); // a preview changes nothing
      const fix = await cli(['fix', id, ...over(node), '--yes', '--json']);
      expect(fix.code, fix.stderr).toBe(0);
      const applied = JSON.parse(fix.stdout) as { status: string; entry: string };
      expect(applied.status).toBe('applied');
      // The journal and backups are the node's own, written there through ssh (0700, root's).
      const state = await node.exec(['stat', '-c', '%a %u', '/var/lib/cni-doctor/journal']);
      expect(state.stdout.trim()).toBe('700 0');

      const right = await node.runPod('after-ssh');
      expect(right.ok, JSON.stringify(right)).toBe(true);
      expect(right.ok && inSubnet(right.ip, node.names.subnet(1))).toBe(true);

      const history = await cli(['history', ...over(node), '--json']);
      expect(history.code, history.stderr).toBe(0);
      expect(history.stdout).toContain(applied.entry);
      const undo = await cli(['undo', applied.entry, ...over(node), '--yes']);
      expect(undo.code, undo.stderr).toBe(0);
      expect(node.configFiles()).toEqual(before);
      // Each command shared one ssh connection and ended it: no master, no socket folder left.
      expect(sshControlDirs().filter((d) => !dirsBefore.includes(d))).toEqual([]);
    });
  });

  it('a repair over ssh SIGKILLed midway is rolled back by the next command over ssh', async () => {
    await withNode(s, { ssh: true }, async (node) => {
      const before = node.configFiles();
      const id = repairOf(await scanJson(over(node)));
      const killed = await cli(
        ['fix', id, ...over(node), '--yes'],
        { CNI_DOCTOR_LIST_POINTS: '1', CNI_DOCTOR_CRASH_AT: 'step-1:done' },
        CRASH_ENTRY,
      );
      expect(killed.code).toBeNull();
      expect(killed.stderr).toContain('transition step-1:done');
      expect(node.configFiles()).not.toEqual(before);
      // The killed run's ssh went with it: the node's lock is free again for the next command.
      const next = await cli(['history', ...over(node), '--json']);
      expect(next.code, next.stderr).toBe(0);
      expect(next.stderr).toMatch(/recover|rolled back/i);
      expect(node.configFiles()).toEqual(before);
    });
  });
});
