/**
 * crio-set-cgroup-manager (kubelet.cgroup-driver.mismatch under CRI-O). With cgroupfs CRI-O also
 * needs `conmon_cgroup = "pod"` or it refuses to start (docs/knowledge/cri-o.md#the-crionetwork-table).
 */
import type { PlanBuilder } from './types';
import { restartStep } from './steps';
import { CRIO_RESTART_IMPACT, crioFacts, crioSettingsStep, type CrioSetting } from './crio-dropin';
import { refuse } from './refusal';

export const buildCrioSetCgroupManager: PlanBuilder<'crio-set-cgroup-manager'> = async (
  s,
  r,
  host,
) => {
  const facts = crioFacts(s);
  const value = r.offer.params.value;
  if (value !== 'systemd' && value !== 'cgroupfs')
    refuse(`"${value}" is not a cgroup manager CRI-O knows`);
  const settings: CrioSetting[] = [
    {
      keyPath: ['crio', 'runtime', 'cgroup_manager'],
      value,
      ...(facts.cgroupManager && { current: facts.cgroupManager }),
    },
  ];
  if (value === 'cgroupfs')
    settings.push({ keyPath: ['crio', 'runtime', 'conmon_cgroup'], value: 'pod' });
  const write = await crioSettingsStep(host, facts, settings);
  return {
    risk: 'high',
    steps: [write, restartStep(host, 'crio')],
    podImpact: `${CRIO_RESTART_IMPACT} Changing the cgroup driver of a node that already runs pods is disruptive: drain the node first and restart the kubelet after this repair.`,
  };
};
