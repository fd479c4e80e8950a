import type { Rule, FindingDraft } from '../types';
import { offer } from '../offers';
import { fail, pass, unknown } from '../types';
import { isUnknownServiceAnswer } from '../containerd/cri-disabled';
import { endpointKey } from '../../conventions/endpoint';
import { accessDeniedReason, isAccessDenied } from '../../conventions/access-denied';

const UNANSWERED = new Set([4, 14]);

export const criEndpointUnreachable: Rule = {
  id: 'cri.endpoint.unreachable',
  area: 'cri',
  severity: 'error',
  title: 'A CRI endpoint exists but does not answer',
  firesWhen: 'the endpoint exists but does not answer CRI (refused, timeout)',
  repair: { kind: 'auto', text: 'restart the runtime service' },
  platforms: ['linux', 'windows'],
  kb: [
    'docs/knowledge/kubelet-and-cri.md#the-cri-grpc-api',
    'docs/knowledge/lab.md#cri-over-grpc-from-node',
  ],
  evaluate(ctx) {
    const s = ctx.snapshot;
    const present = s.endpoints.filter((e) => e.state === 'present' && e.runtime !== 'docker');
    if (present.length === 0) return pass();
    if (!s.cri)
      return unknown(
        s.criUnknown ??
          'the runtimes were not asked over CRI (not recorded in this bundle, or the disk is not a running node)',
      );
    const findings: FindingDraft[] = [];
    // A socket we may not open says nothing about the runtime behind it (issue 22): a healthy
    // containerd's socket is root-only, so a non-root scan gets EACCES, not a stale socket.
    const denied: string[] = [];
    for (const e of present) {
      const answer = s.cri.find((c) => endpointKey(c.endpoint) === endpointKey(e.endpoint));
      if (!answer) continue;
      if (answer.error && isAccessDenied(answer.error.message)) {
        denied.push(e.endpoint);
        continue;
      }
      if (
        !answer.error ||
        isUnknownServiceAnswer(answer.error) ||
        (!UNANSWERED.has(answer.error.code) && answer.error.code !== 2)
      )
        continue;
      const service =
        e.runtime === 'k3s'
          ? 'k3s'
          : e.runtime === 'crio'
            ? 'crio'
            : e.runtime === 'cri-dockerd'
              ? 'cri-docker'
              : 'containerd';
      findings.push({
        key: e.endpoint,
        severity: 'error',
        title: `${e.endpoint} exists but does not answer CRI (${answer.error.code === 4 ? 'timed out' : 'refused'})`,
        summary: `The socket file is there, but ${answer.error.code === 4 ? 'the runtime does not answer within the deadline (hung)' : 'nothing accepts connections on it: the runtime died and left a stale socket'}. Everything that dials it — the kubelet, crictl — fails.`,
        evidence: [
          {
            kind: 'cri',
            endpoint: e.endpoint,
            field: 'error',
            value: `code ${answer.error.code}: ${answer.error.message}`,
          },
        ],
        repairs: [offer('restart-service', `Restart the ${service} service`, { service })],
      });
    }
    if (findings.length) return fail(...findings);
    if (denied.length) return unknown(accessDeniedReason(denied.join(', '), s.node.os));
    return pass();
  },
};
