/**
 * Whole-process benchmarks (issue 11): the built `cni-doctor` command, started the way a user
 * starts it, beside an honest floor measured in the same run and the same way:
 *
 * - start-up: `cni-doctor --version` and a small `scan --bundle` against `node -e 0`;
 * - `scan --root` of a big synthetic node (2,000 conflists, a 1 GiB containerd log) against
 *   `node -e 0` plus `cat` of the bytes the scan reads (whole configs, the 64 MiB log tails);
 * - `collect --root` of the same node against `tar czf` of the same files (log tails included).
 *
 * Floor and subject runs alternate; each figure gives the median and the min of the runs. CPU is
 * user + system time of the whole process tree (every descendant waited for: `sh` running `cat`
 * and `tail`, a worker thread) at millisecond resolution, from bash's `times` builtin; on a busy
 * machine it moves far less than wall-clock time, and the min of the runs is the least disturbed.
 * RSS is the peak resident set of the whole process, from GNU time (`/usr/bin/time`, Debian
 * package `time`) when it is installed (its own ~1 ms of CPU is then counted on both sides).
 * Needs `npm run build` (dist/cli.cjs). Run alone: `npm run bench -- process`.
 */
import { spawn } from 'node:child_process';
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { READ_LIMITS } from '../main/bundle/limits';
import { GZIP_OPTIONS } from '../main/bundle/tar-blocks';
import { makeSyntheticNode, type SyntheticNode } from './synthetic-node';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = path.join(ROOT, 'bin', 'cni-doctor.cjs');
const DEMO_BUNDLE = path.join(ROOT, 'assets', 'demo', 'minikube-conflict');
const GNU_TIME = '/usr/bin/time';
const BASH = '/bin/bash';
/**
 * Runs "$@" with its output thrown away, then writes the CPU time of bash's waited-for children
 * (the command's whole tree; not bash itself) to fd 3 as `times` prints it: `0m0.107s 0m0.020s`.
 */
const CPU_OF_TREE = '"$@" </dev/null >/dev/null 2>&1; rc=$?; times >&3; exit $rc';

export interface ProcRun {
  ms: number;
  /** Peak RSS in MiB (GNU time's %M); undefined without GNU time. */
  rssMiB?: number;
  /**
   * User + system CPU time of the process tree in ms (bash's `times`, ms resolution; GNU time's
   * %U + %S, 10 ms resolution, without bash): less sensitive to a busy machine.
   */
  cpuMs?: number;
  code: number | null;
}

/** `times`' children line (`0m0.107s 0m0.020s`) as user + system ms; undefined if it is not one. */
export function parseTimes(out: string): number | undefined {
  const m = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(out.trim().split('\n').pop() ?? '');
  if (!m) return undefined;
  const [, um, us, sm, ss] = m.map(Number) as number[];
  return (
    Math.round(
      ((um as number) * 60 + (us as number) + (sm as number) * 60 + (ss as number)) * 1e6,
    ) / 1e3
  );
}

let runs = 0;

/** Runs one process to its end (stdout and stderr to /dev/null), timing it from spawn to exit. */
export async function runProcess(
  argv: readonly string[],
  cwd = ROOT,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ProcRun> {
  const withTime = existsSync(GNU_TIME);
  const withBash = existsSync(BASH);
  const rssFile = path.join(os.tmpdir(), `cni-doctor-bench-rss-${process.pid}-${++runs}`);
  const timed = withTime ? [GNU_TIME, '-f', '%M %U %S', '-o', rssFile, ...argv] : [...argv];
  const full = withBash ? [BASH, '-c', CPU_OF_TREE, 'bash', ...timed] : timed;
  let times = '';
  const started = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(full[0] as string, full.slice(1), {
      cwd,
      env,
      stdio: ['ignore', 'ignore', 'ignore', withBash ? 'pipe' : 'ignore'],
    });
    child.stdio[3]?.on('data', (d: Buffer) => (times += d.toString()));
    child.on('error', reject);
    child.on('close', (c) => resolve(c));
  });
  const ms = performance.now() - started;
  const treeCpu = withBash ? parseTimes(times) : undefined;
  if (!withTime) return { ms, code, ...(treeCpu !== undefined && { cpuMs: treeCpu }) };
  // GNU time writes "Command exited with non-zero status N" first when the exit code is not 0.
  const last = (await fsp.readFile(rssFile, 'utf8')).trim().split('\n').pop() ?? '';
  await fsp.rm(rssFile, { force: true });
  const [kib, user, sys] = last.split(' ').map(Number);
  const gnuCpu =
    Number.isFinite(user) && Number.isFinite(sys)
      ? ((user as number) + (sys as number)) * 1000
      : undefined;
  const cpuMs = treeCpu ?? gnuCpu;
  return {
    ms,
    code,
    ...(Number.isFinite(kib) && { rssMiB: (kib as number) / 1024 }),
    ...(cpuMs !== undefined && { cpuMs }),
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

export interface Figure {
  name: string;
  ms: number;
  floorMs: number;
  floorName: string;
  ratio: number;
  /** The issue's ceiling for the ratio, when it sets one. */
  target?: number;
  rssMiB?: number;
  rssTargetMiB?: number;
  /** Median CPU time (user + system of the process tree) of subject and floor. */
  cpuMs?: number;
  floorCpuMs?: number;
  /** The least CPU time of any run of the subject, and of the floor (its parts summed per run). */
  cpuMinMs?: number;
  floorCpuMinMs?: number;
  /** A run exited with a code other than the expected ones. */
  failed?: string;
}

interface Contender {
  argv: readonly string[];
  /** Exit codes that mean the command did its job (scan exits 3 when it found errors). */
  ok: readonly number[];
  before?: () => Promise<void>;
  /** The environment to run in (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

/** Alternates floor and subject runs; medians of each (floor parts summed run by run). */
async function compare(
  runs: number,
  floors: readonly Contender[],
  subject: Contender,
): Promise<{
  ms: number;
  floorMs: number;
  rssMiB?: number;
  cpuMs?: number;
  floorCpuMs?: number;
  cpuMinMs?: number;
  floorCpuMinMs?: number;
  failed?: string;
}> {
  const floorMs: number[] = [];
  const ms: number[] = [];
  const floorCpu: number[] = [];
  const cpu: number[] = [];
  let rss: number | undefined;
  let failed: string | undefined;
  const once = async (c: Contender): Promise<ProcRun> => {
    await c.before?.();
    const r = await runProcess(c.argv, ROOT, c.env);
    if (!c.ok.includes(r.code ?? -1))
      failed ??= `${c.argv.slice(0, 4).join(' ')} … exited ${String(r.code)}`;
    return r;
  };
  // One warm-up of each: page cache and disk state are the same for both sides.
  for (const f of floors) await once(f);
  await once(subject);
  for (let i = 0; i < runs; i++) {
    let sum = 0;
    let sumCpu = 0;
    for (const f of floors) {
      const r = await once(f);
      sum += r.ms;
      sumCpu += r.cpuMs ?? NaN;
    }
    floorMs.push(sum);
    floorCpu.push(sumCpu);
    const r = await once(subject);
    ms.push(r.ms);
    cpu.push(r.cpuMs ?? NaN);
    if (r.rssMiB !== undefined) rss = Math.max(rss ?? 0, r.rssMiB);
  }
  return {
    ms: median(ms),
    floorMs: median(floorMs),
    ...(rss !== undefined && { rssMiB: rss }),
    ...(cpu.every(Number.isFinite) &&
      floorCpu.every(Number.isFinite) && {
        cpuMs: median(cpu),
        floorCpuMs: median(floorCpu),
        cpuMinMs: Math.min(...cpu),
        floorCpuMinMs: Math.min(...floorCpu),
      }),
    ...(failed !== undefined && { failed }),
  };
}

const NODE_E0: Contender = { argv: [process.execPath, '-e', '0'], ok: [0] };
const cli = (...args: string[]): readonly string[] => [process.execPath, CLI, ...args];

function figure(
  name: string,
  floorName: string,
  r: Awaited<ReturnType<typeof compare>>,
  targets: { ratio?: number; rssMiB?: number } = {},
): Figure {
  return {
    name,
    floorName,
    ms: r.ms,
    floorMs: r.floorMs,
    ratio: r.ms / r.floorMs,
    ...(targets.ratio !== undefined && { target: targets.ratio }),
    ...(r.rssMiB !== undefined && { rssMiB: r.rssMiB }),
    ...(targets.rssMiB !== undefined && { rssTargetMiB: targets.rssMiB }),
    ...(r.cpuMs !== undefined && {
      cpuMs: r.cpuMs,
      floorCpuMs: r.floorCpuMs,
      cpuMinMs: r.cpuMinMs,
      floorCpuMinMs: r.floorCpuMinMs,
    }),
    ...(r.failed !== undefined && { failed: r.failed }),
  };
}

/** The files `scan`/`collect` read in whole (configs), and the logs they read the tail of. */
function splitReads(node: SyntheticNode): { whole: string[]; logs: string[] } {
  const logs = new Set(node.logs);
  return {
    whole: node.files.filter((f) => !logs.has(f) && !f.includes('/opt/cni/bin/')),
    logs: node.logs,
  };
}

export interface ProcessBenchOptions {
  cniFiles?: number;
  containerdLogMiB?: number;
  startupRuns?: number;
  bigRuns?: number;
  log?: (line: string) => void;
}

/**
 * Runs the figures with a code cache of their own: the per-user one keeps at most 32 caches, and
 * other checkouts or builds used meanwhile (several sessions on one machine) can evict this
 * build's, so that a run meant to be warm compiles everything again (~180 ms).
 */
export async function runProcessBench(opts: ProcessBenchOptions = {}): Promise<Figure[]> {
  const cacheHome = await fsp.mkdtemp(path.join(os.tmpdir(), 'cni-doctor-bench-cache-'));
  const saved = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = cacheHome;
  try {
    return await runFigures(opts);
  } finally {
    if (saved === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved;
    await fsp.rm(cacheHome, { recursive: true, force: true });
  }
}

async function runFigures(opts: ProcessBenchOptions): Promise<Figure[]> {
  if (!existsSync(path.join(ROOT, 'dist', 'cli.cjs')))
    throw new Error('dist/cli.cjs is missing: run `npm run build` first');
  const log = opts.log ?? (() => {});
  const startupRuns = opts.startupRuns ?? 11;
  const bigRuns = opts.bigRuns ?? 3;
  const figures: Figure[] = [];

  const version = await compare(startupRuns, [NODE_E0], { argv: cli('--version'), ok: [0] });
  figures.push(figure('cni-doctor --version', 'node -e 0', version));
  const small = await compare(startupRuns, [NODE_E0], {
    argv: cli('scan', '--bundle', DEMO_BUNDLE),
    ok: [0, 3],
  });
  figures.push(figure('scan --bundle (demo)', 'node -e 0', small, { ratio: 1.5 }));
  // NODE_EXTRA_CA_CERTS makes every Node start read and parse that file (~40 ms of CPU for a
  // system's whole CA bundle), on both sides: it flatters a start-up ratio. Without it as well.
  if (process.env.NODE_EXTRA_CA_CERTS) {
    const env = { ...process.env };
    delete env.NODE_EXTRA_CA_CERTS;
    const bare = await compare(startupRuns, [{ ...NODE_E0, env }], {
      argv: cli('scan', '--bundle', DEMO_BUNDLE),
      ok: [0, 3],
      env,
    });
    figures.push(
      figure('scan --bundle (demo), NODE_EXTRA_CA_CERTS unset', 'node -e 0 (unset too)', bare, {
        ratio: 1.5,
      }),
    );
  }
  // What the README's `npx cni-doctor` costs on top (the PATH install avoids it).
  const npx = await compare(Math.min(startupRuns, 5), [NODE_E0], {
    argv: ['npx', '--no-install', 'cni-doctor', '--version'],
    ok: [0],
  });
  figures.push(figure('npx cni-doctor --version', 'node -e 0', npx));

  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cni-doctor-bench-node-'));
  try {
    const cniFiles = opts.cniFiles ?? 2000;
    const containerdLogMiB = opts.containerdLogMiB ?? 1024;
    const t0 = performance.now();
    const root = path.join(dir, 'node');
    const node = await makeSyntheticNode(root, {
      cniFiles,
      logMegabytes: 8,
      containerdLogMegabytes: containerdLogMiB,
    });
    log(
      `  synthetic node: ${cniFiles} conflists, ${containerdLogMiB} MiB containerd log (${((performance.now() - t0) / 1000).toFixed(1)} s to write)`,
    );
    const { whole, logs } = splitReads(node);
    const tail = String(READ_LIMITS.logTailBytes);
    // The floor reads exactly these bytes: every config whole, the last 64 MiB of every log.
    const catScript = path.join(dir, 'cat-the-bytes.sh');
    const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
    await fsp.writeFile(
      catScript,
      `cat ${whole.map(q).join(' ')} > /dev/null\ntail -q -c ${tail} ${logs.map(q).join(' ')} > /dev/null\n`,
    );
    const catFloor: Contender = { argv: ['sh', catScript], ok: [0] };
    const scan = await compare(bigRuns, [NODE_E0, catFloor], {
      argv: cli('scan', '--root', root),
      ok: [0, 3],
    });
    figures.push(
      figure(
        `scan --root (${cniFiles} conflists, ${containerdLogMiB} MiB log)`,
        'node -e 0 + cat of the bytes',
        scan,
        {
          ratio: 4,
          rssMiB: 200,
        },
      ),
    );

    // tar czf of the same files: the configs as they are, each log's 64 MiB tail as a file.
    const tails = path.join(dir, 'tails');
    for (const l of logs) {
      const rel = path.relative(root, l);
      const dest = path.join(tails, rel);
      await fsp.mkdir(path.dirname(dest), { recursive: true });
      const h = await fsp.open(l, 'r');
      try {
        const size = (await h.stat()).size;
        const len = Math.min(size, READ_LIMITS.logTailBytes);
        const buf = Buffer.alloc(len);
        await h.read(buf, 0, len, size - len);
        await fsp.writeFile(dest, buf);
      } finally {
        await h.close();
      }
    }
    const floorOut = path.join(dir, 'floor.tar.gz');
    const collectOut = path.join(dir, 'collect.tar.gz');
    const tarFloor: Contender = {
      argv: [
        'tar',
        'czf',
        floorOut,
        '-C',
        root,
        ...whole.map((f) => path.relative(root, f)),
        '-C',
        tails,
        ...logs.map((l) => path.relative(root, l)),
      ],
      ok: [0],
      before: () => fsp.rm(floorOut, { force: true }),
    };
    const collect = await compare(bigRuns, [tarFloor], {
      argv: cli('collect', '--root', root, '--out', collectOut),
      ok: [0],
      before: () => fsp.rm(collectOut, { force: true }),
    });
    figures.push(
      // The same compression on both sides: tar czf runs gzip at its default level, 6.
      figure(
        `collect --root (same node, gzip level ${GZIP_OPTIONS.level})`,
        'tar czf of the same files (gzip level 6)',
        collect,
        {
          ratio: 1.3,
          rssMiB: 200,
        },
      ),
    );
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
  return figures;
}

/**
 * One line per figure: wall clock, floor and ratio; CPU median and min beside their floors; the
 * issue's ceiling judged on both whole-process measures: the wall-clock median (what a user
 * waits; a floor such as `tar czf` runs gzip beside tar, as collect compresses on a second
 * thread) and the CPU min (what a busy machine disturbs least; work on a second thread counts).
 */
export function formatFigure(f: Figure): string {
  const ratio = `${f.ratio.toFixed(2)}×`;
  const judged: { ratio: number; on: string }[] = [{ ratio: f.ratio, on: 'wall median' }];
  if (f.cpuMinMs !== undefined && f.floorCpuMinMs !== undefined)
    judged.push({ ratio: f.cpuMinMs / f.floorCpuMinMs, on: 'CPU min' });
  const verdict =
    f.target === undefined
      ? ''
      : ` (target ≤ ${f.target}×: ${judged.map((j) => `${j.on} ${j.ratio.toFixed(2)}× ${j.ratio <= (f.target as number) ? 'met' : 'NOT met'}`).join(', ')})`;
  const rss =
    f.rssMiB === undefined
      ? ''
      : `; RSS ${f.rssMiB.toFixed(0)} MiB${f.rssTargetMiB === undefined ? '' : ` (target ≤ ${f.rssTargetMiB} MiB: ${f.rssMiB <= f.rssTargetMiB ? 'met' : 'NOT met'})`}`;
  const cpu =
    f.cpuMs === undefined || f.floorCpuMs === undefined
      ? ''
      : `; CPU median ${f.cpuMs.toFixed(0)} ms vs ${f.floorCpuMs.toFixed(0)} ms → ${(f.cpuMs / f.floorCpuMs).toFixed(2)}×` +
        (f.cpuMinMs === undefined || f.floorCpuMinMs === undefined
          ? ''
          : `, min ${f.cpuMinMs.toFixed(0)} ms vs ${f.floorCpuMinMs.toFixed(0)} ms → ${(f.cpuMinMs / f.floorCpuMinMs).toFixed(2)}×`);
  const failed = f.failed === undefined ? '' : ` — FAILED: ${f.failed}`;
  return `${f.name}: ${f.ms.toFixed(0)} ms vs ${f.floorName} ${f.floorMs.toFixed(0)} ms → ${ratio}${verdict}${cpu}${rss}${failed}`;
}
