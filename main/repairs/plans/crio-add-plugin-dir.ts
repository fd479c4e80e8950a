/**
 * crio-add-plugin-dir (cni.plugin.missing under CRI-O): add the dir that holds the plugin to
 * `plugin_dirs`. Arrays are replaced, not merged, by a later drop-in, so ours lists every
 * current dir plus the new one.
 */
import type { PlanBuilder } from './types';
import { restartStep } from './steps';
import { CRIO_RESTART_IMPACT, crioFacts, crioSettingsStep } from './crio-dropin';
import { refuse } from './refusal';

export const buildCrioAddPluginDir: PlanBuilder<'crio-add-plugin-dir'> = async (s, r, host) => {
  const facts = crioFacts(s);
  const dir = r.offer.params.dir;
  const current = facts.cni.binDirs;
  if (current.value.includes(dir.replace(/\/+$/, ''))) refuse(`${dir} is already in plugin_dirs`);
  const write = await crioSettingsStep(host, facts, [
    { keyPath: ['crio', 'network', 'plugin_dirs'], value: [...current.value, dir], current },
  ]);
  return {
    risk: 'medium',
    steps: [write, restartStep(host, 'crio')],
    podImpact: CRIO_RESTART_IMPACT,
  };
};
