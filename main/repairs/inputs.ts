/** Re-hash a plan's inputs: the last look before the first byte changes. */
import type { RepairPlan } from '../../shared/model/repair';
import { listingSha256, sha256 } from './hash';
import type { NodeFs } from './node-fs';

export async function changedInputs(plan: RepairPlan, fs: NodeFs): Promise<string[]> {
  const changed: string[] = [];
  for (const i of plan.inputs) {
    let now: string | null;
    if (i.kind === 'dir') {
      const names = await fs.list(i.path);
      now = names ? listingSha256(names) : null;
    } else {
      // Mirrors PlanHost: content for files (and links to files), the entry type otherwise.
      const st = await fs.stat(i.path);
      const target = st?.type === 'symlink' ? await fs.stat(i.path, true) : st;
      if (st === null || target === null) now = null;
      else if (target.type === 'file') {
        const data = await fs.read(i.path);
        now = data ? sha256(data) : null;
      } else now = sha256(st.type);
    }
    if (now !== i.sha256) changed.push(i.path);
  }
  return changed;
}
