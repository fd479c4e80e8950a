/** Two scans side by side: the pure comparison and what it needs from a scan. */
import type { ComparedScan, ScanComparison } from '../../shared/model/compare';
import type { Report } from '../../shared/model/report';
import type { Snapshot } from '../../shared/model/snapshot';
import { compareScans, type CompareInput } from './diff';
import { loadOrderOf } from './load-order';

export { compareScans, type CompareInput } from './diff';

export function compareInput(
  scan: ComparedScan,
  r: { report: Report; snapshot: Snapshot },
): CompareInput {
  return { scan, report: r.report, loadOrder: loadOrderOf(r.snapshot) };
}

/** Compares two scan results (the untrimmed reports and their snapshots). */
export function compareResults(
  before: { scan: ComparedScan; report: Report; snapshot: Snapshot },
  after: { scan: ComparedScan; report: Report; snapshot: Snapshot },
): ScanComparison {
  return compareScans(compareInput(before.scan, before), compareInput(after.scan, after));
}
