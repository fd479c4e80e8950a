/**
 * The verification rescan beside the scan a repair was planned from: which findings went away,
 * stayed or appeared, and each runtime's conf dir load order before and after (the same shapes
 * Compare shows, main/compare/). Kept in the journal with the verification.
 */
import type { RescanDiff } from '../../shared/model/repair';
import type { Report } from '../../shared/model/report';
import type { Snapshot } from '../../shared/model/snapshot';
import { brief, compareLoadOrder } from '../compare/diff';
import { loadOrderOf } from '../compare/load-order';

export function rescanDiff(
  before: { report: Report; snapshot: Snapshot },
  after: { report: Report; snapshot?: Snapshot },
): RescanDiff {
  const now = new Set(after.report.findings.map((f) => f.id));
  const then = new Set(before.report.findings.map((f) => f.id));
  const runtimes = new Map<string, { label: string; b?: RescanSide; a?: RescanSide }>();
  for (const r of loadOrderOf(before.snapshot))
    runtimes.set(r.runtime, { label: r.label, b: r.side });
  if (after.snapshot)
    for (const r of loadOrderOf(after.snapshot))
      runtimes.set(r.runtime, { ...runtimes.get(r.runtime), label: r.label, a: r.side });
  return {
    gone: before.report.findings.filter((f) => !now.has(f.id)).map(brief),
    stayed: after.report.findings.filter((f) => then.has(f.id)).map(brief),
    appeared: after.report.findings.filter((f) => !then.has(f.id)).map(brief),
    loadOrder: [...runtimes].map(([rt, x]) => compareLoadOrder(rt, x.label, x.b, x.a)),
  };
}

type RescanSide = ReturnType<typeof loadOrderOf>[number]['side'];
