/**
 * Shortens very long evidence lists before a report crosses to the renderer. A finding about
 * 50,000 stale HNS endpoints is still one finding; the first screen needs its first lines, not a
 * multi-megabyte list. The Inventory shows every object from the snapshot instead.
 */
import type { Report } from '../../shared/model/report';

export const MAX_EVIDENCE_PER_FINDING = 200;

export function trimEvidence(
  report: Report,
  max = MAX_EVIDENCE_PER_FINDING,
): { report: Report; trimmed: Record<string, number> } {
  const trimmed: Record<string, number> = {};
  const findings = report.findings.map((f) => {
    if (f.evidence.length <= max) return f;
    trimmed[f.id] = f.evidence.length;
    return { ...f, evidence: f.evidence.slice(0, max) };
  });
  return { report: { ...report, findings }, trimmed };
}
