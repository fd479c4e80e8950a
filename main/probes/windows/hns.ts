/** HNS facts: the host's raw lists, normalised once into the shared model (docs/knowledge/windows-hns.md#field-names). */
import type { Fact } from '../../../shared/model/fact';
import { known, unknownFact } from '../../../shared/model/fact';
import type { HnsModel } from '../../../shared/model/hns';
import type { Host } from '../../host/host';
import { normalizeHns } from './hns-normalize';

export async function probeHns(host: Host): Promise<Fact<HnsModel>> {
  const raw = await host.hns();
  if (!raw.known) return raw;
  // A list that could not be read makes every HNS judgement uncertain: a missing endpoint list
  // must not look like "no stale endpoints".
  const failed = Object.entries(raw.value.errors ?? {});
  if (failed.length > 0)
    return unknownFact(`HNS ${failed.map(([k, v]) => `${k}: ${v}`).join('; ')}`);
  return known(normalizeHns(raw.value));
}
