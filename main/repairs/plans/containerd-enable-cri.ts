/**
 * containerd-enable-cri (containerd.cri.disabled): remove the one `disabled_plugins` element that
 * turns CRI off, as a minimal text edit (every other byte unchanged, docs/knowledge/containerd.md#disabled_plugins), then restart
 * containerd; verification asks CRI whether it answers now.
 */
import { removeArrayElement } from '../../config/toml';
import { disablesCri } from '../../rules/containerd/cri-disabled';
import type { PlanBuilder } from './types';
import { editStep, restartStep } from './steps';
import { CONTAINERD_RESTART_IMPACT, containerdTarget } from './containerd-config';
import { refuse } from './refusal';

export const buildContainerdEnableCri: PlanBuilder<'containerd-enable-cri'> = async (
  s,
  r,
  host,
) => {
  const t = containerdTarget(s);
  const file = r.offer.params.file;
  const element = r.offer.params.element;
  if (!disablesCri(element)) refuse(`"${element}" does not disable CRI`);
  if (!t.facts.files.some((f) => f.path === file))
    refuse(`${file} is not one of containerd's config files`);
  const write = await editStep(host, file, [
    (text) => removeArrayElement(text, ['disabled_plugins'], element),
  ]);
  return {
    risk: 'medium',
    steps: [write, restartStep(host, t.service)],
    podImpact: `${CONTAINERD_RESTART_IMPACT} Pods stuck in ContainerCreating get their sandboxes when the kubelet retries. Docker (if it uses this containerd) keeps working.`,
  };
};
