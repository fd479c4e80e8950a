/** Grouping and filtering of findings for the Findings screen. Pure, so it is unit-tested. */
import type { Finding, RuleArea, RuleInfo, Severity } from '../../../shared/model/finding';
import { SEVERITY_RANK } from '../../../shared/model/finding';

export const AREA_LABELS: Record<RuleArea, string> = {
  cni: 'CNI configuration',
  containerd: 'containerd',
  crio: 'CRI-O',
  cri: 'CRI endpoints',
  kubelet: 'kubelet',
  windows: 'Windows networking (HNS)',
  logs: 'Logs',
};

const AREA_ORDER: readonly RuleArea[] = [
  'cni',
  'containerd',
  'crio',
  'cri',
  'kubelet',
  'windows',
  'logs',
];

/** The rule catalog knows each rule's area; without it, fall back on the id's first segment. */
export function areaOf(rule: string, rules?: ReadonlyMap<string, RuleInfo>): RuleArea {
  const known = rules?.get(rule)?.area;
  if (known) return known;
  const head = rule.split('.')[0] ?? '';
  if (head === 'hns' || head === 'windows') return 'windows';
  if (head === 'log') return 'logs';
  return (AREA_ORDER as readonly string[]).includes(head) ? (head as RuleArea) : 'logs';
}

export interface FindingFilter {
  severities: Record<Severity, boolean>;
  text: string;
  muted: readonly string[];
  showMuted: boolean;
}

export interface FindingGroup {
  area: RuleArea;
  label: string;
  findings: Finding[];
}

export function matchesText(f: Finding, text: string): boolean {
  const q = text.trim().toLowerCase();
  if (!q) return true;
  return [f.title, f.summary, f.rule, f.id, f.runtime ?? ''].some((s) =>
    s.toLowerCase().includes(q),
  );
}

export function filterFindings(
  findings: readonly Finding[],
  filter: FindingFilter,
): { shown: Finding[]; mutedHidden: number } {
  const muted = new Set(filter.muted);
  let mutedHidden = 0;
  const shown = findings.filter((f) => {
    if (!filter.severities[f.severity] || !matchesText(f, filter.text)) return false;
    if (muted.has(f.id) && !filter.showMuted) {
      mutedHidden++;
      return false;
    }
    return true;
  });
  return { shown, mutedHidden };
}

export function groupByArea(
  findings: readonly Finding[],
  rules?: ReadonlyMap<string, RuleInfo>,
): FindingGroup[] {
  const groups = new Map<RuleArea, Finding[]>();
  for (const f of findings) {
    const a = areaOf(f.rule, rules);
    const list = groups.get(a) ?? [];
    list.push(f);
    groups.set(a, list);
  }
  return AREA_ORDER.filter((a) => groups.has(a)).map((area) => ({
    area,
    label: AREA_LABELS[area],
    findings: [...(groups.get(area) ?? [])].sort(
      (x, y) => SEVERITY_RANK[y.severity] - SEVERITY_RANK[x.severity],
    ),
  }));
}
