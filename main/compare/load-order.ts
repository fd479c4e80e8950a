/**
 * Each runtime's CNI conf dir in its real load order, with every file's role, as the rules see it
 * (main/rules/derive.ts): the "load order" half of a comparison.
 */
import type { LoadOrderSide } from '../../shared/model/compare';
import type { Snapshot } from '../../shared/model/snapshot';
import { derive, parsed } from '../rules/derive';

export interface RuntimeLoadOrder {
  runtime: string;
  label: string;
  side: LoadOrderSide;
}

export function loadOrderOf(s: Snapshot): RuntimeLoadOrder[] {
  return derive(s).runtimes.map((rt) => {
    const confDir = rt.confDir?.path ?? rt.facts.cni.confDir.value;
    let note: string | undefined;
    if (!rt.confDir) note = 'this conf dir was not examined';
    else if (rt.confDir.missing) note = 'the folder does not exist';
    else if (!rt.confDir.entries.known) note = `could not list: ${rt.confDir.entries.reason}`;
    const entries = (rt.load?.entries ?? []).map((e) => {
      const p = parsed(e.file);
      return {
        name: e.file.name,
        role: e.role,
        ...(p?.ok && p.network !== undefined && { network: p.network }),
      };
    });
    return {
      runtime: rt.name,
      label: rt.label,
      side: { confDir, entries, ...(note !== undefined && { note }) },
    };
  });
}
