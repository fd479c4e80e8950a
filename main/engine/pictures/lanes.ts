/**
 * The report's load-order lanes: each runtime's conf dir as main/compare/load-order.ts reads it,
 * cut to a size a report can carry. A conf dir of thousands of files keeps every config in use
 * and the first MAX_LANE_ENTRIES others; `omitted` says how many more there are.
 */
import type { LoadOrderLane } from '../../../shared/model/pictures';
import type { Snapshot } from '../../../shared/model/snapshot';
import { loadOrderOf } from '../../compare/load-order';
import type { Derived } from '../../rules/derive';

export const MAX_LANE_ENTRIES = 40;

export function reportLanes(s: Snapshot, derived?: Derived): LoadOrderLane[] {
  return loadOrderOf(s, derived).map((lo) => {
    let kept = 0;
    const entries = lo.side.entries.filter(
      (e) => e.role === 'in-use' || (kept < MAX_LANE_ENTRIES && ++kept > 0),
    );
    const omitted = lo.side.entries.length - entries.length;
    return {
      runtime: lo.runtime,
      label: lo.label,
      usedByKubelet: lo.usedByKubelet,
      side: { ...lo.side, entries },
      ...(omitted > 0 && { omitted }),
    };
  });
}
