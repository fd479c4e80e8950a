/**
 * Runs every rule over a Snapshot and assembles the report: check statuses, findings with stable
 * ids and repair ids, log lines attached as evidence, and links between findings that explain
 * each other; then the post-evaluation steps (POST_STEPS) that look across findings. Pure: no I/O.
 */
import type { CheckResult, Evidence, Finding, RepairRef } from '../../shared/model/finding';
import type { Snapshot } from '../../shared/model/snapshot';
import type { Report } from '../../shared/model/report';
import { REPORT_SCHEMA } from '../../shared/model/report';
import { ALL_RULES } from '../rules/catalog';
import { derive } from '../rules/derive';
import type { Rule, RuleOutcome } from '../rules/types';
import type { OfferKind, RepairOffer } from '../rules/offers';
import { allSignatures } from '../logs/catalog';
import { summarize } from './summary';
import type { PostStep } from './post/types';
import { staleViewNoteStep } from './post/stale-view-note';
import { claimLogLinesStep } from './post/claim-log-lines';
import { rankStep } from './post/rank';
import { oldLogLinesStep } from './post/old-log-lines';
import { groupRepeatsStep } from './post/group-repeats';
import { couldNotLookStep } from './post/could-not-look';
import { accessNote } from './access-note';
import { unexplainedLogLines } from './unexplained-logs';
import { reportLanes } from './pictures/lanes';
import { windowsChain } from './pictures/windows-chain';

/**
 * Steps run in this order after every rule: findings that rest only on a permission error
 * dropped (could not look is never a cause), notes that concern several rules, then which finding
 * each log line belongs to, then which lines predate the last configuration change, then
 * findings repeated per file grouped into one, then the one ranking every door shows (last, so
 * it sees the final findings).
 */
export const POST_STEPS: readonly PostStep[] = [
  couldNotLookStep,
  staleViewNoteStep,
  claimLogLinesStep,
  oldLogLinesStep,
  groupRepeatsStep,
  rankStep,
];

export interface ResolvedRepair<K extends OfferKind = OfferKind> {
  id: string;
  rule: string;
  findingId: string;
  offer: RepairOffer<K>;
}

export interface Evaluation {
  report: Report;
  /** Repair id → what the rule offered (kind + params): what `fix` rebuilds its plan from. */
  repairs: Map<string, ResolvedRepair>;
}

const MAX_LOG_EVIDENCE = 10;

function safeEvaluate(
  rule: Rule,
  snapshot: Snapshot,
  derived: ReturnType<typeof derive>,
): RuleOutcome {
  try {
    return rule.evaluate({ snapshot, derived });
  } catch (e) {
    // A rule bug must not take the whole report down: the check says it could not decide.
    return {
      status: 'unknown',
      reason: `internal error in rule ${rule.id}: ${(e as Error).message}`,
    };
  }
}

export function evaluate(snapshot: Snapshot, rules: readonly Rule[] = ALL_RULES): Evaluation {
  const derived = derive(snapshot);
  const checks: CheckResult[] = [];
  const findings: Finding[] = [];
  const repairs = new Map<string, ResolvedRepair>();
  const explainedBy = new Map<Finding, string[]>();
  const sigById = new Map(allSignatures.map((s) => [s.id, s]));

  for (const rule of rules) {
    const outcome = safeEvaluate(rule, snapshot, derived);
    if (outcome.status !== 'fail') {
      checks.push({
        rule: rule.id,
        status: outcome.status,
        ...('reason' in outcome && { reason: outcome.reason }),
      });
      continue;
    }
    checks.push({ rule: rule.id, status: 'fail' });
    for (const draft of outcome.findings) {
      const id = draft.key ? `${rule.id}#${draft.key}` : rule.id;
      const refs: RepairRef[] = [];
      for (const offer of draft.repairs ?? []) {
        const repairId = `${rule.id}:${offer.kind}${draft.key ? `:${shortKey(draft.key)}` : ''}${offer.key ? `:${offer.key}` : ''}`;
        repairs.set(repairId, { id: repairId, rule: rule.id, findingId: id, offer });
        refs.push({ id: repairId, title: offer.title, needsElevation: offer.needsElevation });
      }
      // Log lines whose signature explains this rule become evidence (rules.md "Logs").
      // One line can match two signatures of the same rule (a generic and a runtime-specific
      // one); quote it once.
      const quoted = new Set<string>();
      const logEvidence: Evidence[] = snapshot.logs.matches
        .filter((m) => sigById.get(m.signatureId)?.attachesTo === rule.id)
        .filter((m) => {
          const at = `${m.path}:${m.line}`;
          if (quoted.has(at)) return false;
          quoted.add(at);
          return true;
        })
        .slice(-MAX_LOG_EVIDENCE)
        .map((m) => ({
          kind: 'log',
          path: m.path,
          line: m.line,
          text: m.text,
          signature: m.signatureId,
          ...(m.tailBytes !== undefined && { tailBytes: m.tailBytes }),
        }));
      const finding: Finding = {
        id,
        rule: rule.id,
        severity: draft.severity,
        title: draft.title,
        summary: draft.summary,
        ...(draft.runtime !== undefined && { runtime: draft.runtime }),
        evidence: [...draft.evidence, ...logEvidence],
        repairs: refs,
        ...(draft.guidance !== undefined && { guidance: draft.guidance }),
        kb: rule.kb,
      };
      if (draft.explainedBy) explainedBy.set(finding, draft.explainedBy);
      findings.push(finding);
    }
  }

  for (const [finding, ruleIds] of explainedBy) {
    const related = findings
      .filter((f) => f !== finding && ruleIds.includes(f.rule))
      .map((f) => f.id);
    if (related.length > 0) finding.relatedFindings = related;
  }

  let assembly = { checks, findings };
  for (const step of POST_STEPS) assembly = step.run(assembly, { snapshot, derived });
  // A grouped finding keeps its members' ids alive: their repairs stay valid.
  const kept = new Set(assembly.findings.flatMap((f) => [f.id, ...(f.members ?? [])]));
  for (const f of assembly.findings)
    if (f.relatedFindings) {
      f.relatedFindings = f.relatedFindings.filter((id) => kept.has(id));
      if (f.relatedFindings.length === 0) delete f.relatedFindings;
    }
  for (const [id, r] of repairs) if (!kept.has(r.findingId)) repairs.delete(id);

  const report: Report = {
    schema: REPORT_SCHEMA,
    node: {
      os: snapshot.node.os,
      ...(snapshot.node.hostname !== undefined && { hostname: snapshot.node.hostname }),
      source: snapshot.node.source,
    },
    checks: assembly.checks,
    findings: assembly.findings,
    summary: summarize(snapshot, derived, assembly.findings),
  };
  const access = accessNote(snapshot, assembly.checks);
  if (access) report.access = access;
  const unexplained = unexplainedLogLines(snapshot.logs.matches, assembly.findings);
  if (unexplained) report.unexplainedLogLines = unexplained;
  const lanes = reportLanes(snapshot, derived);
  if (lanes.length > 0) report.loadOrder = lanes;
  const chain = windowsChain(snapshot, derived, assembly.findings);
  if (chain) report.windowsChain = chain;
  return { report, repairs };
}

/** Keep repair ids typeable: a file path discriminator becomes its base name. */
function shortKey(key: string): string {
  return key
    .replace(/[^A-Za-z0-9._@-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}
