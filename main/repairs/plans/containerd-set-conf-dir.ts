/**
 * containerd-set-conf-dir (cni.dir.mismatch): point containerd's `conf_dir` at the folder that
 * holds the cluster's config. The new dir must hold a valid config already (never switch to a
 * dir that leaves containerd with no network).
 */
import { setTomlValue } from '../../config/toml';
import type { PlanBuilder } from './types';
import { stringParam } from './params';
import { editStep, restartStep } from './steps';
import { CONTAINERD_RESTART_IMPACT, containerdTarget, fileFor } from './containerd-config';
import { countValid } from './conf-dir-guard';
import { refuse } from './refusal';

export const buildContainerdSetConfDir: PlanBuilder = async (s, r, host) => {
  const t = containerdTarget(s);
  const dir = stringParam(r, 'dir');
  const names = await host.list(dir);
  if (!names || (await countValid(host, dir, names)) === 0) refuse(`${dir} holds no valid CNI config`);
  const file = fileFor(t, t.facts.cni.confDir);
  const write = await editStep(host, file, [(x) => setTomlValue(x, [...t.runtimeTable, 'cni', 'conf_dir'], dir)]);
  return {
    risk: 'medium',
    steps: [write, restartStep(host, t.service)],
    podImpact: `${CONTAINERD_RESTART_IMPACT} New pods then use the config in ${dir}; running pods keep their current network until recreated.`,
  };
};
