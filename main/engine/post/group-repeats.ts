/**
 * One finding per kind, not per file: a node with 2,000 unparsable or unsupported configs gets
 * one finding that lists them, not 2,000 findings that bury the cause (and a 5 MB report).
 * Findings of the same rule, severity and runtime that a rule raised per subject (ids
 * `<rule>#<key>`) are merged once there are GROUP_AT_LEAST of them. The merged finding keeps the
 * first one's text and evidence as the example, lists every member with its repair ids (each
 * still works with `cni-doctor fix`), and names the members in `members`, so a repair's
 * verification still finds the finding it fixed.
 */
import type { Evidence, Finding } from '../../../shared/model/finding';
import type { Assembly, PostStep } from './types';

/** Fewer than this many stay separate findings: a handful reads fine one by one. */
export const GROUP_AT_LEAST = 5;

const bucketOf = (f: Finding): string => `${f.rule}\u0000${f.severity}\u0000${f.runtime ?? ''}`;

function merge(list: readonly Finding[]): Finding {
  const first = list[0] as Finding;
  const more = list.length - 1;
  const listing: Evidence[] = [
    {
      kind: 'text',
      text: `${list.length} findings of ${first.rule}${first.runtime ? ` (${first.runtime})` : ''}, the first one shown above:`,
    },
    ...list.map((f): Evidence => {
      const fixes = f.repairs.map((r) => r.id).join(', ');
      return { kind: 'text', text: `${f.title}${fixes ? ` — fix: ${fixes}` : ''}` };
    }),
  ];
  const related = [...new Set(list.flatMap((f) => f.relatedFindings ?? []))];
  return {
    ...first,
    id: `${first.rule}#all:${first.runtime ?? 'node'}:${first.severity}`,
    title: `${first.title} (and ${more.toLocaleString('en-US')} more like it)`,
    summary: `${first.summary} The same holds for ${more.toLocaleString('en-US')} more, listed in the evidence.`,
    evidence: [...first.evidence, ...listing],
    // The example's repairs on the finding; every member's repair id is in the listing.
    repairs: first.repairs,
    members: list.map((f) => f.id),
    ...(related.length > 0 && { relatedFindings: related }),
  };
}

export function groupRepeats(a: Assembly): Assembly {
  const buckets = new Map<string, Finding[]>();
  for (const f of a.findings) {
    if (!f.id.includes('#')) continue;
    const k = bucketOf(f);
    const list = buckets.get(k);
    if (list) list.push(f);
    else buckets.set(k, [f]);
  }
  const groupOf = new Map<Finding, Finding>();
  const renamed = new Map<string, string>();
  for (const list of buckets.values()) {
    if (list.length < GROUP_AT_LEAST) continue;
    const group = merge(list);
    for (const f of list) {
      groupOf.set(f, group);
      renamed.set(f.id, group.id);
    }
  }
  if (groupOf.size === 0) return a;
  const findings: Finding[] = [];
  const placed = new Set<Finding>();
  // The group takes its first member's place, so the rules' order (and the ranking) holds.
  for (const f of a.findings) {
    const g = groupOf.get(f) ?? f;
    if (placed.has(g)) continue;
    placed.add(g);
    findings.push(g);
  }
  // Links to a member now point at its group (never at itself).
  for (const f of findings)
    if (f.relatedFindings) {
      const ids = [...new Set(f.relatedFindings.map((id) => renamed.get(id) ?? id))].filter(
        (id) => id !== f.id,
      );
      if (ids.length > 0) f.relatedFindings = ids;
      else delete f.relatedFindings;
    }
  return { ...a, findings };
}

export const groupRepeatsStep: PostStep = {
  id: 'group-repeats',
  run: (a) => groupRepeats(a),
};
