/**
 * The Compare operation: two held scans (or sources, scanned aside without becoming the current
 * scan) compared by main/compare/. The untrimmed reports and the snapshots are compared, so a
 * finding whose evidence was shortened for transport still compares whole.
 */
import type {
  CompareRequest,
  CompareResponse,
  CompareSide,
  HeldScan,
} from '../../shared/api-compare';
import type { ComparedScan } from '../../shared/model/compare';
import { compareResults } from '../../main/compare';
import { ApiError } from './errors';
import type { ScanEntry, ScanSessions } from './scan-sessions';

async function resolve(scans: ScanSessions, side: CompareSide, which: string): Promise<ScanEntry> {
  if ('scanId' in side) {
    const e = scans.held(side.scanId);
    if (!e)
      throw new ApiError('not-found', `the ${which} scan is no longer held; pick or scan it again`);
    return e;
  }
  return scans.scanAside(side);
}

function described(e: ScanEntry): ComparedScan {
  const r = e.result.report;
  return {
    scanId: e.response.scanId,
    label: e.response.label,
    os: r.node.os,
    ...(r.node.hostname !== undefined && { hostname: r.node.hostname }),
    ...(r.scannedAt !== undefined && { scannedAt: r.scannedAt }),
  };
}

export async function compareHeldScans(
  scans: ScanSessions,
  req: CompareRequest,
): Promise<CompareResponse> {
  const before = await resolve(scans, req.before, 'older');
  const after = await resolve(scans, req.after, 'newer');
  const comparison = compareResults(
    { scan: described(before), report: before.result.report, snapshot: before.result.snapshot },
    { scan: described(after), report: after.result.report, snapshot: after.result.snapshot },
  );
  return {
    comparison,
    beforeScanId: before.response.scanId,
    afterScanId: after.response.scanId,
  };
}

export function heldScans(scans: ScanSessions): HeldScan[] {
  return scans.list().map((e) => ({
    scanId: e.response.scanId,
    request: e.response.request,
    label: e.response.label,
    ...(e.result.report.scannedAt !== undefined && { scannedAt: e.result.report.scannedAt }),
    findings: e.result.report.findings.length,
    current: scans.current === e,
  }));
}
