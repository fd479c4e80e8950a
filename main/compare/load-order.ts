/**
 * Each runtime's CNI conf dir in its real load order, with every file's role, as the rules see it
 * (main/rules/derive.ts): the "load order" half of a comparison, the report's lanes and the
 * repair preview's "now" and "after this repair".
 */
import type { LoadOrderSide } from '../../shared/model/compare';
import type { Snapshot } from '../../shared/model/snapshot';
import type { Derived } from '../rules/derive';
import { derive, parsed } from '../rules/derive';

export interface RuntimeLoadOrder {
  runtime: string;
  label: string;
  usedByKubelet: boolean;
  side: LoadOrderSide;
}

export function loadOrderOf(s: Snapshot, derived: Derived = derive(s)): RuntimeLoadOrder[] {
  return derived.runtimes.map((rt) => {
    const confDir = rt.confDir?.path ?? rt.facts.cni.confDir.value;
    let note: string | undefined;
    if (!rt.confDir) note = 'this conf dir was not examined';
    else if (rt.confDir.missing) note = 'the folder does not exist';
    else if (!rt.confDir.entries.known) note = `could not list: ${rt.confDir.entries.reason}`;
    else if (rt.load?.undecided)
      note = `${rt.load.undecided.name} could not be read, so which config wins cannot be told`;
    const entries = (rt.load?.entries ?? []).map((e) => {
      const p = parsed(e.file, rt.profile.libcni);
      const why = e.note ?? (p && !p.ok ? p.error : undefined);
      return {
        name: e.file.name,
        role: e.role,
        ...(p?.ok && p.network !== undefined && { network: p.network }),
        ...(why !== undefined && { note: why }),
      };
    });
    return {
      runtime: rt.name,
      label: rt.label,
      usedByKubelet: rt.usedByKubelet,
      side: { confDir, entries, ...(note !== undefined && { note }) },
    };
  });
}
