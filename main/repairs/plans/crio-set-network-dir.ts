/** crio-set-network-dir (cni.dir.mismatch under CRI-O): point `network_dir` at the cluster's folder. */
import type { PlanBuilder } from './types';
import { restartStep } from './steps';
import { CRIO_RESTART_IMPACT, crioFacts, crioSettingsStep } from './crio-dropin';
import { countValid } from './conf-dir-guard';
import { refuse } from './refusal';

export const buildCrioSetNetworkDir: PlanBuilder<'crio-set-network-dir'> = async (s, r, host) => {
  const facts = crioFacts(s);
  const dir = r.offer.params.dir;
  const names = await host.list(dir);
  if (!names || (await countValid(host, dir, names)) === 0)
    refuse(`${dir} holds no valid CNI config`);
  const write = await crioSettingsStep(host, facts, [
    { keyPath: ['crio', 'network', 'network_dir'], value: dir, current: facts.cni.confDir },
  ]);
  return {
    risk: 'medium',
    steps: [write, restartStep(host, 'crio')],
    podImpact: `${CRIO_RESTART_IMPACT} New pods then use the config in ${dir}.`,
  };
};
