// A node that cni-doctor reaches can never harm the machine it runs from (issue 20, points 2
// and 3; red-team B2, B3): a hostile `sh` in a real podman node container (hostile-node.ts),
// reached through `podman exec` and through a real sshd, floods a scan with endless blocks,
// endless name records, and well-framed oversized answers, or greets and never answers. Each
// scan must end with a clear error naming the target, within a bounded peak RSS; a killed scan
// over ssh must leave no ssh master behind.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHostileNode, type HostileMode, type HostileNode } from './hostile-node';
import { sleep } from './exec';

const CLI = fileURLToPath(new URL('../../bin/cni-doctor.mjs', import.meta.url));
/** The bound on any remote scan against a hostile node. */
const MAX_RSS_MIB = 300;
/** Past this the scan is stopped (the test has failed): the machine is shared. */
const STOP_AT_MIB = 450;

interface Run {
  code: number | null;
  stderr: string;
  peakMiB: number;
  /** Why the run was stopped by the test, if it was. */
  stopped?: string;
}

function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs the CLI, sampling its peak RSS; stopped past STOP_AT_MIB or `limitMs`. */
function cli(args: string[], limitMs = 150_000, onStart?: (pid: number) => void): Promise<Run> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let peakMiB = 0;
    let stopped: string | undefined;
    p.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const started = Date.now();
    const timer = setInterval(() => {
      peakMiB = Math.max(peakMiB, peakRss(p.pid as number));
      if (peakMiB > STOP_AT_MIB) stopped = `stopped past ${STOP_AT_MIB} MiB`;
      else if (Date.now() - started > limitMs) stopped = `still running after ${limitMs} ms`;
      if (stopped) p.kill('SIGKILL');
    }, 50);
    onStart?.(p.pid as number);
    p.on('close', (code) => {
      clearInterval(timer);
      resolve({ code, stderr, peakMiB: Math.round(peakMiB), ...(stopped && { stopped }) });
    });
  });
}

let node: HostileNode;
beforeAll(async () => {
  if (!existsSync(fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url))))
    throw new Error('npm run build first');
  node = await startHostileNode();
});
afterEach(async () => {
  await node?.killLeftovers();
});
afterAll(async () => {
  await node?.stop();
});

const over = {
  container: (): string[] => ['--target', node.target],
  ssh: (): string[] => ['--target', node.ssh.target, '--ssh-config', node.ssh.configFile],
};

describe.each([
  ['blocks', /container:podman\/cnd-node-hostile-\w+ \(podman exec\): .*more blocks/],
  ['names', /container:podman\/cnd-node-hostile-\w+ \(podman exec\): .*name longer than 4096/],
  [
    'framed',
    /container:podman\/cnd-node-hostile-\w+ \(podman exec\): .*more than asked for \(a read of \/etc\/os-release: at most 4194305 bytes/,
  ],
  // 'framed-max' (answers at the size asked until the 128 MiB session cap) runs over ssh below:
  // the cap is the session's, whatever the transport, and podman's exec relay carries ~0.5 MiB/s
  // on a loaded 2-core machine (277 s for this one case in CI, against 96 s over ssh).
] as const)('a hostile node answering with %s (red-team H1–H3)', (mode, error) => {
  it(
    `ends the scan through podman exec with a clear error, peak RSS under ${MAX_RSS_MIB} MiB`,
    { timeout: 300_000 },
    async () => {
      node.setMode(mode as HostileMode);
      const r = await cli(['scan', ...over.container()], 280_000);
      console.log(`hostile ${mode} over podman exec: peak RSS ${r.peakMiB} MiB`);
      expect(r.stopped, r.stderr).toBeUndefined();
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(error);
      expect(r.peakMiB).toBeLessThanOrEqual(MAX_RSS_MIB);
    },
  );
});

describe('well-framed answers at the size asked, over ssh (the session cap)', () => {
  it(
    `ends the scan with a clear error, peak RSS under ${MAX_RSS_MIB} MiB`,
    { timeout: 600_000 },
    async () => {
      node.setMode('framed-max');
      // What ends the scan must be the session cap, not the 60 s answer deadline: one 4 MiB
      // answer took longer than that in a CI run at load 30. Ceilings, not measures (~96 s here).
      const r = await cli(['scan', ...over.ssh(), '--node-timeout', '240'], 580_000);
      console.log(`hostile framed-max over ssh: peak RSS ${r.peakMiB} MiB`);
      expect(r.stopped, r.stderr).toBeUndefined();
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/ssh:cnd-lab-node \(ssh\): .*more than 128 MiB in one session/);
      expect(r.peakMiB).toBeLessThanOrEqual(MAX_RSS_MIB);
    },
  );
});

describe('a node that greets and never answers (red-team H4)', () => {
  it.each(['container', 'ssh'] as const)(
    'fails the scan through %s within --node-timeout, naming the target',
    async (via) => {
      node.setMode('hang');
      const t0 = Date.now();
      const r = await cli(['scan', ...over[via](), '--node-timeout', '5'], 100_000);
      console.log(`hang over ${via}: error after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      expect(r.stopped, r.stderr).toBeUndefined();
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        via === 'ssh'
          ? /ssh:cnd-lab-node \(ssh\) did not answer the node's name within 5 s/
          : /container:podman\/cnd-node-hostile-\w+ \(podman exec\) did not answer the node's name within 5 s/,
      );
    },
  );

  it(
    'a scan over ssh killed while the node hangs leaves no ssh master or session behind',
    { timeout: 300_000 },
    async () => {
      node.setMode('hang');
      const before = new Set(controlDirs());
      // Earlier tests' hung programs are the node's own business: count only this scan's.
      const hungBefore = (await node.processes(/^sleep 100000/)).length;
      let pid = 0;
      const running = cli(['scan', ...over.ssh()], 100_000, (p) => (pid = p));
      // Killed once the node's program has started: the hung `sleep` the hostile sh became.
      await waitFor(
        'the node program to start',
        async () => (await node.processes(/^sleep 100000/)).length > hungBefore,
      );
      const ours = controlDirs().filter((d) => !before.has(d));
      expect(ours).toHaveLength(1);
      process.kill(pid, 'SIGKILL');
      await running;
      // ControlPersist is 60 s: nothing may be left past it (a generous margin on top).
      await waitFor(
        'no ssh process and no control folder of the killed scan',
        async () =>
          sshProcesses(ours[0] as string).length === 0 &&
          !existsSync(join(tmpdir(), ours[0] as string)),
        90_000,
      );
      await waitFor(
        "no sshd session of the killed scan's connection on the node",
        async () => (await node.processes(/^sshd: root/)).length === 0,
        90_000,
      );
    },
  );
});

function controlDirs(): string[] {
  return readdirSync(tmpdir()).filter((n) => n.startsWith('cni-doctor-ssh-'));
}

/** Local processes whose command line names `dir` (the control socket's folder). */
function sshProcesses(dir: string): string[] {
  const out: string[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(dir) && !cmd.includes('vitest')) out.push(`${pid} ${cmd}`);
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

async function waitFor(
  what: string,
  ok: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}
