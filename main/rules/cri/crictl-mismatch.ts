import type { Rule } from '../types';
import { offer } from '../offers';
import { fail, notApplicable, pass, unknown } from '../types';
import { locatedEvidence } from '../evidence';
import { sameEndpoint } from '../../conventions/endpoint';

export const criCrictlMismatch: Rule = {
  id: 'cri.crictl.mismatch',
  area: 'cri',
  severity: 'warning',
  title: 'crictl talks to another runtime than the kubelet',
  firesWhen: "`crictl.yaml`'s `runtime-endpoint` differs from the kubelet's endpoint",
  repair: { kind: 'auto', text: 'rewrite crictl.yaml' },
  platforms: ['linux', 'windows'],
  kb: ['docs/knowledge/kubelet-and-cri.md#crictl'],
  evaluate(ctx) {
    const s = ctx.snapshot;
    if (!s.crictl.known) return unknown(s.crictl.reason);
    if (!s.kubelet.known) return unknown(s.kubelet.reason);
    const c = s.crictl.value;
    const k = s.kubelet.value;
    if (!c?.runtimeEndpoint) return notApplicable('no crictl.yaml with a runtime-endpoint');
    if (!k) return notApplicable('no kubelet on this node');
    if (!k.endpoint) return unknown("the kubelet's endpoint is not known");
    if (sameEndpoint(c.runtimeEndpoint.value, k.endpoint.value)) return pass();
    // Never trade a crictl that reaches a runtime for one pointed at a socket that is not there:
    // the kubelet's endpoint is cri.endpoint.missing's to fix first.
    const present = (ep: string): boolean =>
      s.endpoints.some((e) => sameEndpoint(e.endpoint, ep) && e.state === 'present');
    const wouldBreakCrictl = present(c.runtimeEndpoint.value) && !present(k.endpoint.value);
    return fail({
      severity: 'warning',
      title: `crictl uses ${c.runtimeEndpoint.value}; the kubelet uses ${k.endpoint.value}`,
      summary: `\`crictl pods\`, \`crictl info\` and every other crictl command inspect a runtime the kubelet does not use, so what you see while debugging is not what the kubelet sees.`,
      evidence: [
        locatedEvidence(s, c.runtimeEndpoint, 'crictl runtime-endpoint'),
        locatedEvidence(s, k.endpoint, 'kubelet endpoint'),
      ],
      repairs: wouldBreakCrictl
        ? []
        : [
            offer('write-crictl-config', `Point crictl at ${k.endpoint.value}`, {
              endpoint: k.endpoint.value,
            }),
          ],
      ...(wouldBreakCrictl && {
        guidance: `The kubelet's endpoint ${k.endpoint.value} does not exist (see cri.endpoint.missing); fix the kubelet first, then point crictl at the same endpoint.`,
      }),
    });
  },
};
