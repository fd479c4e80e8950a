/**
 * Scans the live machine the way `cni-doctor scan` does, and the same node through a bundle
 * collected from it, so the lab can assert that both give the same findings.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LinuxHost } from '../../main/host/linux-host';
import { RecordingHost } from '../../main/host/recording-host';
import { BundleHost } from '../../main/host/bundle-host';
import { scanHost, type ScanResult } from '../../main/engine/scan';
import { collectSnapshot } from '../../main/probes/snapshot';
import { writeBundleArchive } from '../../main/bundle/writer';
import type { CheckStatus } from '../../shared/model/finding';

// The lab's containerd is healthy; a CRI deadline far above its normal answer (tens of ms) keeps
// a loaded machine from turning it into a different diagnosis (CRI unknown).
const CRI_DEADLINE_MS = 30_000;

export async function scanLive(): Promise<ScanResult> {
  return scanHost(new LinuxHost({ criDeadlineMs: CRI_DEADLINE_MS }));
}

export async function scanCollectedBundle(): Promise<ScanResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cnd-bundle-'));
  try {
    const rec = new RecordingHost(new LinuxHost({ criDeadlineMs: CRI_DEADLINE_MS }), {
      redact: true,
      collectorVersion: 'lab',
    });
    await collectSnapshot(rec);
    const { manifest, files } = rec.result();
    const out = join(dir, 'node.tar.gz');
    await writeBundleArchive(out, 'linux', manifest, files);
    return scanHost(await BundleHost.open(out));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What "the same findings" means: rule, finding id and severity of each, and every check's status. */
export function signature(r: ScanResult): {
  findings: string[];
  checks: Record<string, CheckStatus>;
} {
  return {
    findings: r.report.findings.map((f) => `${f.severity} ${f.id}`).sort(),
    checks: Object.fromEntries(r.report.checks.map((c) => [c.rule, c.status])),
  };
}

export function ruleStatus(r: ScanResult, rule: string): CheckStatus | undefined {
  return r.report.checks.find((c) => c.rule === rule)?.status;
}

export function findingsOf(r: ScanResult, rule: string) {
  return r.report.findings.filter((f) => f.rule === rule);
}
