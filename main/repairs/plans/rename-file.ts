/**
 * rename-file (cni.conf.invalid: disable a broken config; cni.conf.none: re-enable the one
 * disabled candidate). One rename in the same directory: a single Rename event that containerd
 * and CRI-O reload on (docs/knowledge/cni-loading.md#how-containerds-cri-uses-the-loader).
 */
import type { PlanBuilder } from './types';
import { renameStep } from './steps';
import { assertConfigRemains } from './conf-dir-guard';
import { CNI_RENAME_IMPACT } from './cni-impact';
import { dirnameNode, pathKey } from '../../conventions/node-paths';
import { refuse } from './refusal';

export const buildRenameFile: PlanBuilder<'rename-file'> = async (s, r, host) => {
  const from = r.offer.params.from;
  const to = r.offer.params.to;
  const os = host.os;
  // A rename into another directory is a Create event there, which containerd ignores.
  if (pathKey(os, dirnameNode(os, from)) !== pathKey(os, dirnameNode(os, to)))
    refuse(`${from} and ${to} are in different directories`);
  const step = await renameStep(host, from, to);
  await assertConfigRemains(s, host, [{ from, to }]);
  return { risk: 'low', steps: [step], podImpact: CNI_RENAME_IMPACT };
};
