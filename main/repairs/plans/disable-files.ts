/**
 * disable-files (cni.conf.shadowed-by-default, cni.conf.multiple): rename each config to
 * `<name>.disabled`, a suffix no loader matches and that the doctor recognises as a disabled
 * variant (re-enable = the reverse rename). Refuses rather than leave the dir without a config.
 */
import type { RenameStep } from '../../../shared/model/repair';
import type { PlanBuilder } from './types';
import { renameStep } from './steps';
import { assertConfigRemains } from './conf-dir-guard';
import { CNI_RENAME_IMPACT } from './cni-impact';
import { refuse } from './refusal';

export const buildDisableFiles: PlanBuilder<'disable-files'> = async (s, r, host) => {
  const paths = r.offer.params.paths;
  if (paths.length === 0) refuse('no files to disable');
  const steps: RenameStep[] = [];
  for (const p of paths) steps.push(await renameStep(host, p, `${p}.disabled`));
  await assertConfigRemains(s, host, steps);
  return { risk: 'low', steps, podImpact: CNI_RENAME_IMPACT };
};
