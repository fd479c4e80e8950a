/**
 * crio-set-default-network (crio.network.default-missing): set `cni_default_network` to the
 * cluster network's name, or to "" (CRI-O then picks the first valid config).
 */
import type { PlanBuilder } from './types';
import { restartStep } from './steps';
import { CRIO_RESTART_IMPACT, crioFacts, crioSettingsStep } from './crio-dropin';

export const buildCrioSetDefaultNetwork: PlanBuilder<'crio-set-default-network'> = async (
  s,
  r,
  host,
) => {
  const facts = crioFacts(s);
  const network = r.offer.params.network;
  const write = await crioSettingsStep(host, facts, [
    {
      keyPath: ['crio', 'network', 'cni_default_network'],
      value: network,
      ...(facts.cni.defaultNetwork && { current: facts.cni.defaultNetwork }),
    },
  ]);
  return {
    risk: 'medium',
    steps: [write, restartStep(host, 'crio')],
    podImpact: `${CRIO_RESTART_IMPACT} Pods waiting for a network get one ${network ? `from "${network}"` : 'from the first valid config'} when the kubelet retries.`,
  };
};
