/**
 * One HNS object of a scan, as the node returned it: the evidence behind an Inventory row or a
 * finding that names it. The host answers the lists its scan collected (a bundle's manifest, the
 * Windows host's one collection), so this is what the scan judged, not a fresh read. Objects are
 * indexed by the same canonical id the snapshot uses (main/probes/windows/hns-fields.ts), once per
 * scan; the index lives as long as the scan is held (WeakMap on its entry).
 */
import {
  INVENTORY_LIMITS,
  type HnsObject,
  type HnsObjectKind,
  type HnsObjectRequest,
} from '../../shared/api-inventory';
import type { Host } from '../../main/host/host';
import { asList, idOf, isObj } from '../../main/probes/windows/hns-fields';
import { ApiError } from './errors';

interface HnsIndex {
  source?: string;
  byKey: Map<string, unknown>;
}

const LISTS: Record<HnsObjectKind, 'networks' | 'endpoints' | 'namespaces' | 'policyLists'> = {
  network: 'networks',
  endpoint: 'endpoints',
  namespace: 'namespaces',
  policyList: 'policyLists',
};

async function buildIndex(host: Host): Promise<HnsIndex> {
  const raw = await host.hns();
  if (!raw.known) throw new ApiError('not-found', `no HNS objects in this scan: ${raw.reason}`);
  const byKey = new Map<string, unknown>();
  for (const [kind, list] of Object.entries(LISTS) as [
    HnsObjectKind,
    (typeof LISTS)[HnsObjectKind],
  ][]) {
    for (const o of asList(raw.value[list])) {
      if (!isObj(o)) continue;
      const id = idOf(o);
      // The first object with an id wins, as in the snapshot's tables.
      if (id !== undefined && !byKey.has(`${kind}:${id}`)) byKey.set(`${kind}:${id}`, o);
    }
  }
  return {
    byKey,
    ...(typeof raw.value.source === 'string' && { source: raw.value.source.slice(0, 200) }),
  };
}

/** Cuts pretty-printed JSON so that it, sent as a JSON string, stays within `max` bytes. */
export function capText(text: string, max: number): { text: string; cut: boolean } {
  const size = (s: string): number => Buffer.byteLength(JSON.stringify(s));
  if (size(text) <= max) return { text, cut: false };
  let n = Math.min(text.length, max);
  while (n > 0 && size(text.slice(0, n)) > max - 64) n = Math.floor(n * 0.8);
  return { text: `${text.slice(0, n)}\n… (cut here)`, cut: true };
}

export class HnsObjects {
  private readonly indexes = new WeakMap<object, Promise<HnsIndex>>();

  async get(scan: object, host: Host, req: HnsObjectRequest): Promise<HnsObject> {
    let index = this.indexes.get(scan);
    if (!index) {
      index = buildIndex(host);
      this.indexes.set(scan, index);
      // A failure is not kept: the next request asks the host again.
      index.catch(() => this.indexes.delete(scan));
    }
    const { byKey, source } = await index;
    const id = req.id
      .trim()
      .replace(/^\{(.*)\}$/, '$1')
      .toLowerCase();
    const o = byKey.get(`${req.kind}:${id}`);
    if (o === undefined)
      throw new ApiError('not-found', `this scan recorded no HNS ${req.kind} with this id`);
    const full = JSON.stringify(o, null, 2);
    const { text, cut } = capText(full, INVENTORY_LIMITS.maxObjectBytes);
    return {
      scanId: req.scanId,
      kind: req.kind,
      id,
      json: text,
      ...(cut && { truncatedFrom: Buffer.byteLength(full) }),
      ...(source !== undefined && { source }),
    };
  }
}
