/**
 * Compares two scans: findings matched by their stable id (rule id plus subject, shared/model/
 * finding.ts), checks by rule id, load orders by runtime. Pure: the same two inputs always give
 * the same comparison, whichever door asked (the server's Compare, `cni-doctor compare`).
 */
import {
  COMPARISON_SCHEMA,
  MAX_EVIDENCE_LINES,
  type ChangedFinding,
  type CheckChange,
  type ComparedScan,
  type FindingBrief,
  type FindingChange,
  type LoadOrderComparison,
  type LoadOrderRow,
  type LoadOrderSide,
  type ScanComparison,
} from '../../shared/model/compare';
import { SEVERITY_RANK, type Finding } from '../../shared/model/finding';
import type { Report } from '../../shared/model/report';
import { describeEvidence, stableKey } from './evidence-lines';
import type { RuntimeLoadOrder } from './load-order';

export interface CompareInput {
  scan: ComparedScan;
  report: Report;
  loadOrder: RuntimeLoadOrder[];
}

export function brief(f: Finding): FindingBrief {
  return { id: f.id, rule: f.rule, severity: f.severity, title: f.title, summary: f.summary };
}

const bySeverity = (a: FindingBrief, b: FindingBrief): number =>
  SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.id.localeCompare(b.id);

/** Items of `a` not in `b`, counting repeats (two equal evidence items are two). */
function multisetMinus<T>(a: readonly T[], b: readonly T[], key: (t: T) => string): T[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(key(x), (left.get(key(x)) ?? 0) + 1);
  const out: T[] = [];
  for (const x of a) {
    const k = key(x);
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    else out.push(x);
  }
  return out;
}

export function findingChanges(before: Finding, after: Finding): FindingChange[] {
  const changes: FindingChange[] = [];
  if (before.severity !== after.severity)
    changes.push({ field: 'severity', before: before.severity, after: after.severity });
  if (before.title !== after.title)
    changes.push({ field: 'title', before: before.title, after: after.title });
  if (before.summary !== after.summary)
    changes.push({ field: 'summary', before: before.summary, after: after.summary });
  const added = multisetMinus(after.evidence, before.evidence, stableKey);
  const removed = multisetMinus(before.evidence, after.evidence, stableKey);
  if (added.length > 0 || removed.length > 0)
    changes.push({
      field: 'evidence',
      added: added.slice(0, MAX_EVIDENCE_LINES).map(describeEvidence),
      removed: removed.slice(0, MAX_EVIDENCE_LINES).map(describeEvidence),
      addedCount: added.length,
      removedCount: removed.length,
    });
  const ids = (f: Finding): string[] => f.repairs.map((r) => r.id);
  const repairsAdded = ids(after).filter((id) => !ids(before).includes(id));
  const repairsRemoved = ids(before).filter((id) => !ids(after).includes(id));
  if (repairsAdded.length > 0 || repairsRemoved.length > 0)
    changes.push({ field: 'repairs', added: repairsAdded, removed: repairsRemoved });
  return changes;
}

function compareChecks(before: Report, after: Report): CheckChange[] {
  const then = new Map(before.checks.map((c) => [c.rule, c]));
  const now = new Map(after.checks.map((c) => [c.rule, c]));
  const rules = [...new Set([...then.keys(), ...now.keys()])].sort();
  const out: CheckChange[] = [];
  for (const rule of rules) {
    const a = then.get(rule);
    const b = now.get(rule);
    const was = a?.status ?? 'absent';
    const is = b?.status ?? 'absent';
    if (was === is) continue;
    out.push({
      rule,
      before: was,
      after: is,
      ...(b?.reason !== undefined && { reason: b.reason }),
    });
  }
  return out;
}

export function compareLoadOrder(
  runtime: string,
  label: string,
  before: LoadOrderSide | undefined,
  after: LoadOrderSide | undefined,
): LoadOrderComparison {
  const rows: LoadOrderRow[] = [];
  const place = (side: LoadOrderSide | undefined, name: string) => {
    const i = side?.entries.findIndex((e) => e.name === name) ?? -1;
    const e = i >= 0 ? side?.entries[i] : undefined;
    return e
      ? { position: i + 1, role: e.role, ...(e.network !== undefined && { network: e.network }) }
      : undefined;
  };
  // Now's order first (what the runtime reads today), then files that are gone, in then's order.
  const names = [
    ...(after?.entries.map((e) => e.name) ?? []),
    ...(before?.entries.map((e) => e.name) ?? []),
  ];
  for (const name of [...new Set(names)]) {
    const b = place(before, name);
    const a = place(after, name);
    const change: LoadOrderRow['change'] = !b
      ? 'added'
      : !a
        ? 'gone'
        : b.role !== a.role || b.network !== a.network
          ? 'role'
          : b.position !== a.position
            ? 'moved'
            : 'same';
    rows.push({ name, ...(b && { before: b }), ...(a && { after: a }), change });
  }
  const inUse = (s: LoadOrderSide | undefined) => s?.entries.find((e) => e.role === 'in-use')?.name;
  const inUseBefore = inUse(before);
  const inUseAfter = inUse(after);
  const changed =
    !before ||
    !after ||
    before.confDir !== after.confDir ||
    before.note !== after.note ||
    rows.some((r) => r.change !== 'same');
  return {
    runtime,
    label,
    ...(before && { before }),
    ...(after && { after }),
    rows,
    ...(inUseBefore !== undefined && { inUseBefore }),
    ...(inUseAfter !== undefined && { inUseAfter }),
    changed,
  };
}

export function compareScans(before: CompareInput, after: CompareInput): ScanComparison {
  const then = new Map(before.report.findings.map((f) => [f.id, f]));
  const now = new Map(after.report.findings.map((f) => [f.id, f]));
  const added = after.report.findings.filter((f) => !then.has(f.id)).map(brief);
  const gone = before.report.findings.filter((f) => !now.has(f.id)).map(brief);
  const changed: ChangedFinding[] = [];
  let unchanged = 0;
  for (const f of after.report.findings) {
    const old = then.get(f.id);
    if (!old) continue;
    const changes = findingChanges(old, f);
    if (changes.length === 0) unchanged += 1;
    else changed.push({ before: brief(old), after: brief(f), changes });
  }
  changed.sort((a, b) => bySeverity(a.after, b.after));

  const runtimes = new Map<string, { label: string; b?: LoadOrderSide; a?: LoadOrderSide }>();
  for (const r of before.loadOrder) runtimes.set(r.runtime, { label: r.label, b: r.side });
  for (const r of after.loadOrder)
    runtimes.set(r.runtime, { ...runtimes.get(r.runtime), label: r.label, a: r.side });
  const loadOrder = [...runtimes].map(([runtime, x]) =>
    compareLoadOrder(runtime, x.label, x.b, x.a),
  );

  return {
    schema: COMPARISON_SCHEMA,
    before: before.scan,
    after: after.scan,
    added: added.sort(bySeverity),
    gone: gone.sort(bySeverity),
    changed,
    unchanged,
    checks: compareChecks(before.report, after.report),
    loadOrder,
  };
}
