/**
 * containerd-add-bin-dir (cni.plugin.missing): make containerd look for CNI plugins in the dir
 * that has them. containerd ≥ 2.1 takes a list (`bin_dirs`: append); older ones a single
 * `bin_dir`, which is replaced only when the new dir holds every plugin the conf dir's configs
 * name — otherwise the repair would just move the failure to another plugin.
 */
import { setTomlValue } from '../../config/toml';
import { lookupStrings, parseConfigFile } from '../../probes/config-chain';
import { findBinDirs, findConfDir, binDirHas, parsed } from '../../rules/derive';
import type { PlanBuilder } from './types';
import { editStep, restartStep } from './steps';
import {
  CONTAINERD_RESTART_IMPACT,
  containerdTarget,
  fileFor,
  supportsBinDirs,
} from './containerd-config';
import { refuse } from './refusal';
import { pathKey } from '../../conventions/node-paths';

export const buildContainerdAddBinDir: PlanBuilder<'containerd-add-bin-dir'> = async (
  s,
  r,
  host,
) => {
  const t = containerdTarget(s);
  const dir = r.offer.params.dir;
  const os = s.node.os;
  const current = t.facts.cni.binDirs;
  if (current.value.some((d) => pathKey(os, d) === pathKey(os, dir)))
    refuse(`${dir} is already one of containerd's CNI bin dirs`);
  const cni = [...t.runtimeTable, 'cni'];
  const file = fileFor(t, current);

  // Is `bin_dirs` already written somewhere? Then it is a list and containerd reads it.
  const text = await host.text(file);
  const errors: { path: string; message: string }[] = [];
  const chain = text
    ? parseConfigFile({ path: file, text: text.text, truncated: false }, errors)
    : undefined;
  const listed = chain ? lookupStrings([chain], [...cni, 'bin_dirs']) : undefined;
  const useList = listed !== undefined || supportsBinDirs(t) === true;

  let edit;
  let note: string;
  if (useList) {
    edit = (x: string) => setTomlValue(x, [...cni, 'bin_dirs'], [...current.value, dir]);
    note = `containerd keeps searching ${current.value.join(', ')} and also searches ${dir}.`;
  } else {
    // A single bin_dir: every plugin the configs need must be in the new dir.
    const target = findBinDirs(s, [dir])[0];
    const confDir = findConfDir(s, t.facts.cni.confDir.value);
    if (!target?.entries.known || !confDir?.entries.known)
      refuse(`the contents of ${dir} or of the conf dir are not known`);
    const needed = new Set<string>();
    for (const f of confDir.entries.value) {
      const p = parsed(f);
      if (f.loadable && p?.ok) for (const ref of p.plugins) needed.add(ref.type);
    }
    needed.add('loopback'); // containerd's own lo network (docs/knowledge/cni-loading.md#containerds-loader)
    const lacking = [...needed].filter((type) => binDirHas(os, target, type) !== true);
    if (lacking.length > 0) {
      refuse(
        `containerd ${t.facts.version ?? '(version unknown)'} reads a single bin_dir, and ${dir} lacks ${lacking.join(', ')} that the configs in ${confDir.path} need; copy the missing plugin(s) into ${current.value[0]} instead`,
      );
    }
    edit = (x: string) => setTomlValue(x, [...cni, 'bin_dir'], dir);
    note =
      `containerd ${t.facts.version ?? ''} reads one bin dir; ${dir} holds every plugin the conf dir's configs name, so it replaces ${current.value[0]}.`.replace(
        '  ',
        ' ',
      );
  }
  const write = await editStep(host, file, [edit]);
  return {
    risk: 'medium',
    steps: [write, restartStep(host, t.service)],
    podImpact: CONTAINERD_RESTART_IMPACT,
    notes: [note],
  };
};
