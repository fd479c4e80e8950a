/**
 * What the reporter tells the API about a scan, the way node-problem-detector does: one node
 * condition (CNIConfigProblem: True while an error finding stands, naming the top one) and an
 * Event on each change. Pure; reporter.ts sends them.
 */
import { CNI_CONDITION_TYPE } from '../../../shared/cluster';
import type { Report } from '../../../shared/model/report';

export interface ConditionState {
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/** `cni.conf.none` → `CniConfNone` (condition reasons are CamelCase words). */
export function reasonFor(rule: string): string {
  return rule
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join('')
    .slice(0, 120);
}

export function conditionFor(report: Report): ConditionState {
  const errors = report.findings.filter((f) => f.severity === 'error');
  const top = errors.find((f) => f.id === report.summary?.topFindingId) ?? errors[0];
  if (!top)
    return {
      status: 'False',
      reason: 'CNIConfigOK',
      message: 'cni-doctor found no error on this node',
    };
  const more = errors.length > 1 ? ` (+${errors.length - 1} more error finding(s))` : '';
  return {
    status: 'True',
    reason: reasonFor(top.rule),
    message: `${top.title} [${top.rule}]: ${top.summary}${more}`.slice(0, 1024),
  };
}

/** The strategic-merge patch of nodes/status for the condition (merged by `type`). */
export function conditionPatch(c: ConditionState, now: string, transition: string) {
  return {
    status: {
      conditions: [
        {
          type: CNI_CONDITION_TYPE,
          status: c.status,
          reason: c.reason,
          message: c.message,
          lastHeartbeatTime: now,
          lastTransitionTime: transition,
        },
      ],
    },
  };
}

/** A core/v1 Event about the node (namespace `default`, like the kubelet's node events). */
export function nodeEvent(node: string, c: ConditionState, now: string) {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { generateName: `${node}.cni-doctor.`, namespace: 'default' },
    involvedObject: { apiVersion: 'v1', kind: 'Node', name: node, uid: node },
    reason: c.status === 'True' ? c.reason : 'CNIConfigOK',
    message: c.message,
    type: c.status === 'True' ? 'Warning' : 'Normal',
    source: { component: 'cni-doctor', host: node },
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
    reportingComponent: 'cni-doctor',
    reportingInstance: node,
  };
}
