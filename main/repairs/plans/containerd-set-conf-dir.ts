/**
 * containerd-set-conf-dir (cni.dir.mismatch): point containerd's `conf_dir` at the folder that
 * holds the cluster's config. The new dir must hold a valid config already (never switch to a
 * dir that leaves containerd with no network). A runtime handler whose own `cni_conf_dir` names
 * the old dir runs its own CNI instance from it (containerd 1.6+, docs/knowledge/cni-loading.md#how-containerds-cri-uses-the-loader), so it follows.
 */
import { setTomlValue } from '../../config/toml';
import { parseToml } from '../../config/toml';
import { getIn } from '../../probes/config-chain';
import { pathKey } from '../../conventions/node-paths';
import type { PlanBuilder } from './types';
import type { TextEdit } from './steps';
import { editStep, restartStep } from './steps';
import { CONTAINERD_RESTART_IMPACT, containerdTarget, fileFor } from './containerd-config';
import { countValid } from './conf-dir-guard';
import { refuse } from './refusal';

export const buildContainerdSetConfDir: PlanBuilder<'containerd-set-conf-dir'> = async (
  s,
  r,
  host,
) => {
  const t = containerdTarget(s);
  const dir = r.offer.params.dir;
  const names = await host.list(dir);
  if (!names || (await countValid(host, dir, names)) === 0)
    refuse(`${dir} holds no valid CNI config`);
  const file = fileFor(t, t.facts.cni.confDir);
  const old = t.facts.cni.confDir.value;
  const edits: TextEdit[] = [(x) => setTomlValue(x, [...t.runtimeTable, 'cni', 'conf_dir'], dir)];
  const text = await host.text(file);
  const doc = text ? parseToml(text.text) : undefined;
  const runtimes = doc?.ok
    ? getIn(doc.value, [...t.runtimeTable, 'containerd', 'runtimes'])
    : undefined;
  const handlers: string[] = [];
  if (typeof runtimes === 'object' && runtimes !== null) {
    for (const [name, rt] of Object.entries(runtimes)) {
      const own =
        typeof rt === 'object' && rt !== null
          ? (rt as Record<string, unknown>).cni_conf_dir
          : undefined;
      if (
        typeof own === 'string' &&
        own !== '' &&
        pathKey(s.node.os, own) === pathKey(s.node.os, old)
      ) {
        handlers.push(name);
        edits.push((x) =>
          setTomlValue(x, [...t.runtimeTable, 'containerd', 'runtimes', name, 'cni_conf_dir'], dir),
        );
      }
    }
  }
  const write = await editStep(host, file, edits);
  return {
    risk: 'medium',
    steps: [write, restartStep(host, t.service)],
    podImpact: `${CONTAINERD_RESTART_IMPACT} New pods then use the config in ${dir}; running pods keep their current network until recreated.`,
    notes: handlers.length
      ? [
          `The runtime handler(s) ${handlers.join(', ')} set their own cni_conf_dir to ${old}; it moves to ${dir} too.`,
        ]
      : [],
  };
};
