/**
 * A node held in memory for rule and probe tests: files by node path, plus whatever else a bundle
 * manifest records (processes, path errors, CRI answers). Scanned through the same BundleHost and
 * engine as a real bundle, without writing a temp folder per case.
 */
import { BUNDLE_FORMAT, type BundleManifest } from '../bundle/manifest';
import { scanHost } from '../engine/scan';
import { BundleHost } from './bundle-host';
import type { CheckResult, Finding } from '../../shared/model/finding';
import type { Report } from '../../shared/model/report';
import type { Snapshot } from '../../shared/model/snapshot';

type ManifestSections = Omit<BundleManifest, 'format' | 'host'>;

export interface MemoryNodeSpec extends ManifestSections {
  os?: 'linux' | 'windows';
  /** Node path → content. Directories holding them are listed automatically. */
  files?: Record<string, string | Buffer>;
  /** Runtimes whose process runs (`/usr/bin/<name>`), the shorthand most rule tests need. */
  running?: string[];
}

export function memoryNode(spec: MemoryNodeSpec): BundleHost {
  const { os = 'linux', files = {}, running = [], processes = [], ...sections } = spec;
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    host: { os },
    ...sections,
    processes: [...running.map((name) => ({ name, args: [`/usr/bin/${name}`] })), ...processes],
  };
  const data = new Map(
    Object.entries(files).map(([p, c]) => [p, typeof c === 'string' ? Buffer.from(c) : c]),
  );
  return BundleHost.fromMemory('memory node', manifest, data);
}

export interface MemoryScan {
  report: Report;
  snapshot: Snapshot;
  /** Status of each check by rule id. */
  status(rule: string): CheckResult['status'] | undefined;
  /** The check result (with its reason) of one rule; throws when the rule did not run. */
  check(rule: string): CheckResult;
  /** Findings of one rule, in report order. */
  findings(rule: string): Finding[];
}

/** Scans a memory node (CRI answers only from `spec.cri`; nothing is dialled). */
export async function scanMemoryNode(spec: MemoryNodeSpec): Promise<MemoryScan> {
  const { report, snapshot } = await scanHost(memoryNode(spec), {
    skipCri: spec.cri === undefined,
  });
  const checks = new Map(report.checks.map((c) => [c.rule, c]));
  return {
    report,
    snapshot,
    status: (rule) => checks.get(rule)?.status,
    check(rule) {
      const c = checks.get(rule);
      if (!c) throw new Error(`rule ${rule} did not run`);
      return c;
    },
    findings: (rule) => report.findings.filter((f) => f.rule === rule),
  };
}
