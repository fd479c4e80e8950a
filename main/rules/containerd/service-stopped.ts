/**
 * containerd is installed, the kubelet is pointed at it, and it is not running: the service is
 * stopped or failed and its socket is gone. That is the finding (with the service state and the
 * journal's last exit line), not a missing endpoint or a network that "is not ready": nobody
 * was there to answer.
 */
import type { Evidence } from '../../../shared/model/finding';
import type { Rule } from '../types';
import { fail, notApplicable, pass, unknown } from '../types';
import { offer } from '../offers';
import { endpointKey } from '../../conventions/endpoint';

const DOWN = new Set(['stopped', 'failed']);

export const containerdServiceStopped: Rule = {
  id: 'containerd.service.stopped',
  area: 'containerd',
  severity: 'error',
  title: 'containerd is installed but not running',
  firesWhen:
    "the kubelet's runtime is containerd, its service is stopped or failed, no containerd process runs and its socket does not exist; the journal's exit lines are the evidence",
  repair: { kind: 'auto', text: 'start the containerd service (the journal says why it stopped)' },
  platforms: ['linux', 'windows'],
  kb: [
    'docs/knowledge/containerd.md#sockets-and-cri-versions',
    'docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from',
  ],
  evaluate({ snapshot: s, derived }) {
    if (!s.containerd.known) return unknown(s.containerd.reason);
    const c = s.containerd.value;
    if (!c) return notApplicable('containerd is not installed');
    const rt = derived.judged.find((r) => r.name === 'containerd');
    if (!rt) return notApplicable('the kubelet uses another runtime');
    if (c.flavor !== 'containerd')
      return notApplicable(`containerd is embedded in ${c.flavor}, which runs it`);
    if (!s.services.known) return unknown(s.services.reason);
    const svc = s.services.value.find((x) => x.name.toLowerCase() === 'containerd');
    const running = s.processes.known
      ? s.processes.value.some((p) => p.name === 'containerd')
      : undefined;
    const ep = s.endpoints.find((e) => endpointKey(e.endpoint) === endpointKey(rt.endpoint));
    if (running || svc?.state === 'running' || ep?.state === 'present') return pass();
    if (!svc || !DOWN.has(svc.state) || running === undefined || ep?.state !== 'missing')
      return unknown(
        `whether containerd runs could not be told (service ${svc?.state ?? 'not recorded'}, socket ${ep?.state ?? 'not checked'})`,
      );
    const evidence: Evidence[] = [
      { kind: 'text', text: `service containerd: ${svc.state}; no containerd process` },
      {
        kind: 'path',
        path: c.address.value,
        state: 'missing',
        note: 'containerd listens here when it runs',
      },
    ];
    return fail({
      severity: 'error',
      runtime: rt.label,
      title: `containerd is ${svc.state === 'failed' ? 'down (its service failed)' : 'stopped'}`,
      summary: `The kubelet uses containerd, which is installed (${c.configPath}) but not running: the service is ${svc.state} and ${c.address.value} does not exist. No pod can be created or networked until it runs again; nothing on this node answered for it, so its network status is not known either.`,
      evidence,
      // A config containerd refuses is why it stopped: starting it again fails the same way.
      repairs:
        c.configErrors.length === 0
          ? [offer('restart-service', 'Start containerd', { service: 'containerd' })]
          : [],
      ...(c.configErrors.length > 0 && {
        guidance:
          'Fix the config.toml error (see containerd.config.invalid) first, then start containerd.',
      }),
      explainedBy: ['containerd.config.invalid'],
    });
  },
};
