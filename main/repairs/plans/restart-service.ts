/** restart-service (cri.endpoint.unreachable): restart the runtime that left a dead socket. */
import type { PlanBuilder } from './types';
import { restartStep } from './steps';
import { refuse } from './refusal';
import { CONTAINERD_RESTART_IMPACT } from './containerd-config';
import { CRIO_RESTART_IMPACT } from './crio-dropin';

const KNOWN = new Set([
  'containerd',
  'crio',
  'cri-docker',
  'k3s',
  'k3s-agent',
  'rke2-server',
  'rke2-agent',
  'kubelet',
  'antrea-agent',
  'ovs-vswitchd',
]);

export const buildRestartService: PlanBuilder<'restart-service'> = async (_s, r, host) => {
  const service = r.offer.params.service;
  if (!KNOWN.has(service)) refuse(`"${service}" is not a service the doctor restarts`);
  if (!host.live)
    refuse('a node disk mounted under --root is not running; its services start when it boots');
  const impact =
    service === 'containerd'
      ? CONTAINERD_RESTART_IMPACT
      : service === 'crio'
        ? CRIO_RESTART_IMPACT
        : `${service} restarts; running containers keep running while it is down.`;
  return { risk: 'medium', steps: [restartStep(host, service)], podImpact: impact };
};
