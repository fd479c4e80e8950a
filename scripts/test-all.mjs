// `npm test`: every check, with the independent ones running at the same time, and at the end
// where the time went (wall clock and CPU of each step).
//
// Run one after another, the steps took ~21 min on the 2-core CI machine, though the real-daemon
// lab (containerd, podman, sshd) and the browser tests mostly wait: the lab used ~70 s of CPU in
// ~340–600 s. So after the build, the steps run in lanes:
//
//   typecheck
//   lint
//   build ─┬─ unit                     (vitest; some tests run the built CLI)
//          ├─ ui                       (Playwright, the specs that start no lab)
//          ├─ ui-sweep                 (Playwright, the specs that visit every screen)
//          └─ lab ── ui-lab            (vitest e2e/lab, then the Playwright specs that start a lab)
//
// On 2 cores the CPU-bound steps (typecheck, lint, unit, ui) then share the cores: the sum of
// their CPU time is the floor either way, and beside other load (CI's two CPU hogs, other
// builds) more runnable steps get a larger share of the machine than one step at a time did.
//
// Why the lab's lane: a lab run and a UI spec that starts a lab must not overlap. The lab's scans read
// this machine's process table (a second containerd or kubelet stand-in would be read as this
// node's), and both start podman node containers that the Targets screen lists. So the Playwright
// specs that import the lab (e2e/ui/*.spec.ts importing ../lab/, the `ui-lab` project of
// e2e/playwright.config.ts) run after the vitest lab, in its lane; the unit tests and the other
// UI specs touch no daemon and run beside it.
//
// A failed step stops its lane and keeps the other lanes from starting anything new; steps that
// are running finish (a lab killed halfway would leave containers behind). Exit 1 if any failed.
import { spawn } from 'node:child_process';

const STEPS = [
  { name: 'typecheck', after: [], cmd: ['npm', 'run', 'typecheck'] },
  { name: 'lint', after: [], cmd: ['npm', 'run', 'lint'] },
  { name: 'build', after: [], cmd: ['npm', 'run', 'build'] },
  { name: 'unit', after: ['build'], cmd: ['npm', 'run', 'test:unit'] },
  { name: 'lab', after: ['build'], cmd: ['npm', 'run', 'test:lab'] },
  {
    name: 'ui',
    after: ['build'],
    cmd: ['npm', 'run', 'test:e2e', '--', '--project=ui', '--project=electron'],
  },
  {
    name: 'ui-sweep',
    after: ['build'],
    // Its own output folder: each Playwright run empties the one it writes to.
    cmd: [
      'npm',
      'run',
      'test:e2e',
      '--',
      '--project=ui-sweep',
      '--output=e2e/out/test-results-sweep',
    ],
  },
  {
    name: 'ui-lab',
    after: ['lab'],
    // Its own output folder: each Playwright run empties the one it writes to.
    cmd: ['npm', 'run', 'test:e2e', '--', '--project=ui-lab', '--output=e2e/out/test-results-lab'],
  },
];

const WIDTH = Math.max(...STEPS.map((s) => s.name.length));
const t0 = Date.now();
const state = new Map(STEPS.map((s) => [s.name, { status: 'waiting' }]));
const running = new Set();
let failed = false;
let stopping = false;

function seconds(ms) {
  return `${Math.round(ms / 1000)} s`;
}

function say(name, line) {
  process.stdout.write(`${name.padEnd(WIDTH)} │ ${line}\n`);
}

/** Lines of a stream, each prefixed with the step's name; a last line without \n too. */
function prefixLines(stream, name) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const l of lines) say(name, l);
  });
  stream.on('end', () => {
    if (rest !== '') say(name, rest);
  });
}

/**
 * `times` after the command prints the CPU time of every process the command waited for (the
 * vitest workers, Chromium), not of daemons that outlive it (containerd, conmon): bash on POSIX
 * only, else no CPU figure.
 */
const WITH_CPU = process.platform !== 'win32';

function start(step) {
  const st = state.get(step.name);
  st.status = 'running';
  st.start = Date.now();
  say(step.name, `▶ ${step.cmd.join(' ')}  (at ${seconds(st.start - t0)})`);
  const [cmd, args] = WITH_CPU
    ? ['bash', ['-c', '"$@"; rc=$?; times >&3; exit $rc', 'step', ...step.cmd]]
    : [step.cmd[0], step.cmd.slice(1)];
  const child = spawn(cmd, args, {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    shell: !WITH_CPU && process.platform === 'win32',
    // Its own process group, so a signal reaches npm and everything under it, not only bash.
    detached: process.platform !== 'win32',
  });
  running.add(child);
  prefixLines(child.stdout, step.name);
  prefixLines(child.stderr, step.name);
  let times = '';
  child.stdio[3]?.on('data', (c) => (times += c.toString()));
  child.on('error', (e) => say(step.name, `could not start: ${e.message}`));
  child.on('close', (code, signal) => {
    running.delete(child);
    st.end = Date.now();
    st.cpu = childCpu(times);
    st.status = code === 0 ? 'ok' : 'FAILED';
    if (code !== 0) failed = true;
    say(
      step.name,
      `■ ${st.status}${code !== 0 ? ` (exit ${signal ?? code})` : ''} after ${seconds(st.end - st.start)}`,
    );
    next();
  });
}

/** The second line of bash's `times`: user and system time of its waited-for children. */
function childCpu(times) {
  const line = times.trim().split('\n')[1];
  if (!line) return undefined;
  const secs = line
    .trim()
    .split(/\s+/)
    .map((f) => {
      const m = /^(\d+)m([\d.]+)s$/.exec(f);
      return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
    });
  return secs.length === 2 && secs.every(Number.isFinite) ? secs[0] + secs[1] : undefined;
}

function next() {
  if (!failed && !stopping) {
    for (const step of STEPS) {
      const st = state.get(step.name);
      if (st.status !== 'waiting') continue;
      if (step.after.every((a) => state.get(a).status === 'ok')) start(step);
    }
  }
  if (running.size === 0) finish();
}

function finish() {
  const total = Date.now() - t0;
  console.log('\nnpm test: where the time went (wall clock from the start; CPU of each step)');
  for (const step of STEPS) {
    const st = state.get(step.name);
    if (st.start === undefined) {
      console.log(`  ${step.name.padEnd(WIDTH)}  not run`);
      continue;
    }
    const from = seconds(st.start - t0).padStart(6);
    const to = seconds(st.end - t0).padStart(6);
    const wall = seconds(st.end - st.start).padStart(6);
    const cpu = st.cpu === undefined ? '' : `  cpu ${seconds(st.cpu * 1000).padStart(6)}`;
    console.log(`  ${step.name.padEnd(WIDTH)}  ${from} → ${to}  ${wall}${cpu}  ${st.status}`);
  }
  console.log(`  total ${seconds(total)}${failed || stopping ? ' — FAILED' : ''}`);
  process.exitCode = failed || stopping ? 1 : 0;
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    stopping = true;
    for (const child of running) {
      try {
        if (process.platform === 'win32') child.kill(sig);
        else process.kill(-child.pid, sig);
      } catch {
        // already gone
      }
    }
  });
}

next();
