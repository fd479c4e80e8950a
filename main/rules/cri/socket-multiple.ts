import type { Rule } from '../types';
import { offer } from '../offers';
import { fail, pass } from '../types';
import { disablesCri, isUnknownServiceAnswer } from '../containerd/cri-disabled';
import { endpointKey } from '../../conventions/endpoint';

export const criSocketMultiple: Rule = {
  id: 'cri.socket.multiple',
  area: 'cri',
  severity: 'warning',
  title: 'More than one CRI endpoint exists on the node',
  firesWhen:
    'more than one CRI endpoint exists (containerd, CRI-O, cri-dockerd, dockershim sockets; Windows pipes) so kubeadm refuses to guess and crictl may talk to the wrong runtime',
  repair: { kind: 'auto', text: "write crictl.yaml pointing at the kubelet's endpoint" },
  platforms: ['linux', 'windows'],
  kb: ['docs/knowledge/kubelet-and-cri.md#kubeadm-and-several-cri-sockets'],
  evaluate(ctx) {
    const s = ctx.snapshot;
    const c = s.containerd.known ? s.containerd.value : undefined;
    const containerdRt = ctx.derived.runtimes.find((r) => r.name === 'containerd');
    const criOff =
      (c && c.disabledPlugins.some((d) => disablesCri(d.value))) ||
      (containerdRt?.cri !== undefined && isUnknownServiceAnswer(containerdRt.cri.error));
    const present = s.endpoints
      .filter((e) => e.state === 'present' && e.runtime !== 'docker')
      .filter((e) => {
        // A containerd socket without CRI is not a CRI endpoint (rules.md Definitions).
        if (
          criOff &&
          containerdRt &&
          endpointKey(e.endpoint) === endpointKey(containerdRt.endpoint)
        )
          return false;
        const answer = s.cri?.find((x) => endpointKey(x.endpoint) === endpointKey(e.endpoint));
        return !(answer && isUnknownServiceAnswer(answer.error));
      });
    if (present.length < 2) return pass();
    const kubeletEp = s.kubelet.known ? s.kubelet.value?.endpoint?.value : undefined;
    // Only an endpoint that exists is worth pointing crictl at (a missing one is cri.endpoint.missing's).
    const target =
      kubeletEp && present.some((e) => endpointKey(e.endpoint) === endpointKey(kubeletEp))
        ? kubeletEp
        : undefined;
    return fail({
      severity: 'warning',
      title: `${present.length} CRI endpoints: ${present.map((e) => e.endpoint).join(', ')}`,
      summary: `kubeadm refuses to guess ("Found multiple CRI endpoints on the host") and crictl without a config tries them in its own order, so commands can inspect a runtime the kubelet does not use.${kubeletEp ? ` The kubelet uses ${kubeletEp}.` : ''}`,
      evidence: present.map((e) => ({
        kind: 'path' as const,
        path: e.endpoint,
        state: `socket present (${e.runtime})`,
      })),
      repairs: target
        ? [
            offer('write-crictl-config', `Write crictl.yaml pointing at ${target}`, {
              endpoint: target,
            }),
          ]
        : [],
      guidance:
        'Pass --cri-socket (kubeadm) or set nodeRegistration.criSocket to the runtime you use; stop the runtime you do not use.',
    });
  },
};
