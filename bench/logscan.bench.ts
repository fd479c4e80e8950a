// Log-scan benchmark: our streaming scanner against `grep -E -c -f patterns.txt` on the same
// synthetic 200 MB node log, best of 3 wall-clock runs each. Target: scanner >= 0.5x grep.
//
//   node --import tsx bench/logscan.bench.ts [sizeMB] [runs]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { signaturesFor } from '../main/logs/catalog';
import { scanFile } from '../main/logs/scanner';
import { writeSyntheticLog } from './logscan-data';

export interface LogScanBenchOptions {
  /** Size of the synthetic log in MB (10^6 bytes). Default 200. */
  sizeMB?: number;
  /** Timed runs per contender; the best counts. Default 3. */
  runs?: number;
  /** Where to put the data; default a fresh temp dir, removed afterwards. */
  dir?: string;
  log?: (line: string) => void;
}

export interface Timing {
  bestMs: number;
  mbPerSec: number;
  /** Lines that matched at least one pattern. */
  matchingLines: number;
}

export interface LogScanBenchResult {
  bytes: number;
  lines: number;
  /** Lines the generator built from signature examples. */
  errorLines: number;
  patterns: number;
  scanner: Timing;
  /** Absent when grep is not installed. */
  grep?: Timing;
  /** scanner MB/s divided by grep MB/s. */
  ratio?: number;
  target: number;
  meetsTarget?: boolean;
  sameMatchCount?: boolean;
}

/** Issue 11: the scanner keeps at least twice grep -E -f's throughput on the same signatures. */
const TARGET_RATIO = 2;

function grepOnce(
  patternsFile: string,
  logFile: string,
): Promise<{ ms: number; count: number } | undefined> {
  return new Promise((resolve) => {
    const started = performance.now();
    // LC_ALL=C: byte semantics, grep's fastest mode (and the same bytes-in, lines-out contract).
    const child = spawn('grep', ['-E', '-c', '-f', patternsFile, logFile], {
      env: { ...process.env, LC_ALL: 'C' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => {
      const ms = performance.now() - started;
      // grep exits 1 when nothing matched; 2 is a real error.
      resolve(code === 0 || code === 1 ? { ms, count: Number(out.trim()) } : undefined);
    });
  });
}

async function best<T extends { ms: number }>(
  runs: number,
  once: () => Promise<T | undefined>,
): Promise<T | undefined> {
  let winner: T | undefined;
  for (let i = 0; i < runs; i++) {
    const r = await once();
    if (r === undefined) return undefined;
    if (winner === undefined || r.ms < winner.ms) winner = r;
  }
  return winner;
}

export async function runLogScanBench(opts: LogScanBenchOptions = {}): Promise<LogScanBenchResult> {
  const sizeMB = opts.sizeMB ?? 200;
  const runs = Math.max(1, opts.runs ?? 3);
  const log = opts.log ?? (() => {});
  const ownDir = opts.dir === undefined;
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'logscan-bench-'));
  const sigs = signaturesFor('linux');
  try {
    const logFile = join(dir, 'node.log');
    const patternsFile = join(dir, 'patterns.txt');
    writeFileSync(patternsFile, sigs.map((s) => s.pattern).join('\n') + '\n');
    log(`generating ${sizeMB} MB synthetic log in ${dir} ...`);
    const data = writeSyntheticLog(logFile, sizeMB * 1e6, sigs);
    log(
      `  ${data.lines} lines, ${data.errorLines} built from signature examples; ${sigs.length} Linux patterns`,
    );
    const mb = data.bytes / 1e6;

    const scan = await best(runs, async () => {
      const started = performance.now();
      const r = await scanFile(logFile, sigs, { maxMatchesPerSignature: Infinity });
      const ms = performance.now() - started;
      if (r.error !== undefined) throw new Error(`scanFile failed: ${r.error}`);
      return { ms, count: new Set(r.matches.map((m) => m.line)).size };
    });
    if (scan === undefined) throw new Error('scanner produced no result');
    const scanner: Timing = {
      bestMs: scan.ms,
      mbPerSec: mb / (scan.ms / 1000),
      matchingLines: scan.count,
    };
    log(
      `  scanner: ${scanner.bestMs.toFixed(0)} ms, ${scanner.mbPerSec.toFixed(0)} MB/s, ${scanner.matchingLines} matching lines`,
    );

    const result: LogScanBenchResult = {
      ...data,
      patterns: sigs.length,
      scanner,
      target: TARGET_RATIO,
    };
    const g = await best(runs, () => grepOnce(patternsFile, logFile));
    if (g === undefined) {
      log('  grep -E: not available, skipped');
      return result;
    }
    const grep: Timing = { bestMs: g.ms, mbPerSec: mb / (g.ms / 1000), matchingLines: g.count };
    const ratio = scanner.mbPerSec / grep.mbPerSec;
    log(
      `  grep -E: ${grep.bestMs.toFixed(0)} ms, ${grep.mbPerSec.toFixed(0)} MB/s, ${grep.matchingLines} matching lines`,
    );
    log(
      `  ratio scanner/grep: ${ratio.toFixed(2)}x (target >= ${TARGET_RATIO}x) ${ratio >= TARGET_RATIO ? 'OK' : 'BELOW TARGET'}`,
    );
    log(
      `  same matching-line count: ${grep.matchingLines === scanner.matchingLines ? 'yes' : 'NO'}`,
    );
    return {
      ...result,
      grep,
      ratio,
      meetsTarget: ratio >= TARGET_RATIO,
      sameMatchCount: grep.matchingLines === scanner.matchingLines,
    };
  } finally {
    if (ownDir) rmSync(dir, { recursive: true, force: true });
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const [size, runs] = process.argv.slice(2).map(Number);
  runLogScanBench({
    sizeMB: Number.isFinite(size) && (size as number) > 0 ? size : undefined,
    runs: Number.isFinite(runs) && (runs as number) > 0 ? runs : undefined,
    log: (line) => console.log(line),
  }).then(
    (r) => {
      if (r.sameMatchCount === false) process.exitCode = 1;
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
