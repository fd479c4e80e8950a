/**
 * CRI-O settings are changed in the doctor's own drop-in, `crio.conf.d/99-cni-doctor.conf`:
 * CRI-O applies every file there in lexical order, last one wins per option (docs/knowledge/cri-o.md#the-crionetwork-table), so a
 * drop-in leaves the packaged files untouched and undo is "remove the file". The temp file for
 * the atomic write goes to the parent directory: CRI-O would apply even a temp file found in
 * crio.conf.d.
 */
import { setTomlValue } from '../../config/toml';
import type { TomlEditValue } from '../../config/toml';
import type { CrioFacts, Located, Snapshot } from '../../../shared/model/snapshot';
import type { WriteStep } from '../../../shared/model/repair';
import { dirnameNode, joinNode } from '../../conventions/node-paths';
import type { PlanHost } from './plan-host';
import { createStep, editStep, type TextEdit } from './steps';
import { refuse } from './refusal';
import { byteOrder } from '../../conventions/cni-files';

export const DROPIN_NAME = '99-cni-doctor.conf';

export const CRIO_RESTART_IMPACT =
  'CRI-O restarts (a few seconds). Running containers keep running under conmon, but no pod can be created or stopped meanwhile and the kubelet logs CRI errors until CRI-O answers again.';

export interface CrioSetting {
  keyPath: string[];
  value: TomlEditValue;
  /** Where the current value comes from (a later drop-in would override ours). */
  current?: Located<unknown>;
}

export function crioFacts(s: Snapshot): CrioFacts {
  if (!s.crio.known) refuse(`CRI-O's configuration could not be read: ${s.crio.reason}`);
  if (!s.crio.value) refuse('CRI-O is not installed on this node');
  return s.crio.value;
}

export async function crioSettingsStep(
  host: PlanHost,
  facts: CrioFacts,
  settings: CrioSetting[],
): Promise<WriteStep> {
  const dropIn = joinNode('linux', facts.dropInDir, DROPIN_NAME);
  for (const st of settings) {
    const src = st.current?.source;
    if (
      src &&
      src !== 'default' &&
      src !== dropIn &&
      src.startsWith(`${facts.dropInDir}/`) &&
      byteOrder(src, dropIn) > 0
    ) {
      refuse(
        `${src} sets ${st.keyPath.join('.')} and is applied after ${DROPIN_NAME}; change it there`,
      );
    }
  }
  const edits: TextEdit[] = settings.map(
    (st) => (x: string) => setTomlValue(x, st.keyPath, st.value),
  );
  const dirListing = await host.list(facts.dropInDir);
  const tempDir = dirnameNode('linux', facts.dropInDir);
  if (dirListing === null) {
    // No drop-in dir: CRI-O reads only the main file, so edit that.
    if (!(await host.exists(facts.configPath)))
      refuse(`neither ${facts.dropInDir} nor ${facts.configPath} exists`);
    return editStep(host, facts.configPath, edits);
  }
  if (await host.exists(dropIn)) return editStep(host, dropIn, edits, { tempDir });
  let text = `# Written by cni-doctor. CRI-O applies this drop-in last; remove it (or run \`cni-doctor undo\`) to go back.\n`;
  for (const edit of edits) {
    const r = edit(text);
    if (!r.ok) refuse(`cannot write ${dropIn}: ${r.reason}`);
    text = r.text;
  }
  return createStep(host, dropIn, text, { mode: 0o644, tempDir });
}
