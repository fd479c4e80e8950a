import type { Rule } from '../types';
import { offer } from '../offers';
import { fail, notApplicable, pass, unknown } from '../types';
import { locatedEvidence } from '../evidence';
import { endpointKey } from '../../conventions/endpoint';
import { isUnknownServiceAnswer } from '../containerd/cri-disabled';

export const criEndpointMissing: Rule = {
  id: 'cri.endpoint.missing',
  area: 'cri',
  severity: 'error',
  title: "The kubelet's runtime endpoint does not exist",
  firesWhen:
    "the kubelet's configured runtime endpoint (flag, KubeletConfiguration.containerRuntimeEndpoint, kubeadm-flags.env) names a socket or pipe that does not exist",
  repair: {
    kind: 'auto',
    text: 'when exactly one live runtime endpoint exists, point the kubelet at it and restart the kubelet',
  },
  platforms: ['linux', 'windows'],
  kb: ['docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from'],
  evaluate(ctx) {
    const s = ctx.snapshot;
    if (!s.kubelet.known) return unknown(s.kubelet.reason);
    const k = s.kubelet.value;
    if (!k) return notApplicable('no kubelet on this node');
    if (!k.endpoint)
      return unknown(
        "the kubelet's runtime endpoint is not set and its version (which decides the default) is unknown",
      );
    const ep = s.endpoints.find((e) => endpointKey(e.endpoint) === endpointKey(k.endpoint!.value));
    if (!ep || ep.state === 'unknown')
      return unknown(`whether ${k.endpoint.value} exists could not be determined`);
    if (ep.state === 'present') return pass();
    const live = s.endpoints.filter(
      (e) =>
        e.state === 'present' &&
        e.runtime !== 'docker' &&
        !isUnknownServiceAnswer(
          s.cri?.find((c) => endpointKey(c.endpoint) === endpointKey(e.endpoint))?.error,
        ),
    );
    const only = live.length === 1 ? live[0] : undefined;
    return fail({
      severity: 'error',
      title: `The kubelet dials ${k.endpoint.value}, which ${ep.state === 'missing' ? 'does not exist' : 'is not a socket'}`,
      summary: `The kubelet cannot reach a container runtime ("dial unix … connect: no such file or directory"), so it cannot start any pod. ${live.length ? `Runtime endpoints that do exist: ${live.map((e) => e.endpoint).join(', ')}.` : 'No other runtime endpoint exists either: is the runtime service running?'}`,
      evidence: [locatedEvidence(s, k.endpoint, 'container runtime endpoint')],
      explainedBy: ['containerd.service.stopped'],
      repairs: only
        ? [
            offer('kubelet-set-endpoint', `Point the kubelet at ${only.endpoint} and restart it`, {
              endpoint: only.endpoint,
            }),
          ]
        : [],
      ...(!only && {
        guidance:
          'Start the runtime the kubelet is configured for, or set --container-runtime-endpoint to the runtime you run.',
      }),
    });
  },
};
