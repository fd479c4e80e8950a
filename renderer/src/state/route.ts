/**
 * The address of what the user is looking at: `#/<screen>[/<finding id>][?src=<source>]`, plus
 * the open viewer's parameters (viewer-route.ts).
 * Every screen and every finding has one, so a reload (or Back/Forward) returns to the same
 * place, and an address can be pasted into a ticket. The serve token never appears here: it
 * lives in sessionStorage (api/token.ts).
 */
import type { ScanRequest } from '../../../shared/api';
import { parseSourceKey, sourceKey } from '../../../shared/source-key';
import { SCREENS, type Screen } from './view-store';
import { parseViewer, viewerParams, type Viewer } from './viewer-route';
import {
  INVENTORY_TABS,
  type HnsObjectKind,
  type InventoryTab,
} from '../../../shared/api-inventory';
import type { TableViews, TableView } from './inventory-tables';

export interface Route {
  screen: Screen;
  findingId: string | null;
  /** null: the door's default source. */
  source: ScanRequest | null;
  /** A file, log or CRI viewer open over the screen; absent or null: none. */
  viewer?: Viewer | null;
  /** The Compare screen's two sides (compare-store.ts); absent or null: its defaults. */
  compare?: ComparePicksRoute | null;
  /** The Inventory's tab and each table's filter and sort; absent or null: its defaults. */
  inventory?: InventoryRoute | null;
  /** The HNS object whose JSON dialog is open, of the scan shown; absent or null: none. */
  object?: { kind: HnsObjectKind; id: string } | null;
}

const OBJECT_KINDS = new Set<string>(['network', 'endpoint', 'namespace', 'policyList']);
function parseObject(v: string | null): { kind: HnsObjectKind; id: string } | null {
  const m = v === null ? null : /^([A-Za-z]+):(.{1,200})$/.exec(v);
  return m && OBJECT_KINDS.has(m[1] ?? '') ? { kind: m[1] as HnsObjectKind, id: m[2] ?? '' } : null;
}

export interface InventoryRoute {
  tab: InventoryTab;
  tables: TableViews;
}

const TAB_IDS = new Set<string>(INVENTORY_TABS.map((t) => t.id));
const MAX_TABLES = 16;
const MAX_QUERY = 500;

/** `tab=hns-endpoints&q0=stale&s0=2d`: table 0 filtered on "stale", sorted by column 2, descending. */
function inventoryParams(r: InventoryRoute): string[] {
  const q: string[] = [];
  if (r.tab !== 'cni') q.push(`tab=${r.tab}`);
  for (const [i, t] of Object.entries(r.tables)) {
    if (t.query !== '') q.push(`q${i}=${encodeURIComponent(t.query)}`);
    if (t.sort) q.push(`s${i}=${t.sort.column}${t.sort.descending ? 'd' : ''}`);
  }
  return q;
}

function parseInventory(q: URLSearchParams): InventoryRoute | null {
  const tab = q.get('tab');
  const tables: Record<number, TableView> = {};
  for (const [k, v] of q) {
    const m = /^([qs])(\d{1,2})$/.exec(k);
    const i = Number(m?.[2]);
    if (!m || i >= MAX_TABLES) continue;
    const s = /^(\d{1,3})(d?)$/.exec(v);
    if (m[1] === 's' && !s) continue;
    const t = (tables[i] ??= { query: '', sort: null });
    if (m[1] === 'q') t.query = v.slice(0, MAX_QUERY);
    else if (s) t.sort = { column: Number(s[1]), descending: s[2] === 'd' };
  }
  if ((tab === null || !TAB_IDS.has(tab)) && Object.keys(tables).length === 0) return null;
  return { tab: tab !== null && TAB_IDS.has(tab) ? (tab as InventoryTab) : 'cni', tables };
}

/** `scan:<scan id>` or `src:<source key>` per side, as the Compare screen's pickers hold them. */
export interface ComparePicksRoute {
  before: string | null;
  after: string | null;
}

const MAX_PICK = 4096;

/** A side as the address may carry it: a held scan's id, or a source that parses. */
function pickParam(v: string | null): string | null {
  if (v === null || v.length > MAX_PICK) return null;
  if (/^scan:[A-Za-z0-9._-]{1,128}$/.test(v)) return v;
  if (v.startsWith('src:') && parseSourceKey(v.slice(4)) !== null) return v;
  return null;
}

const SCREEN_IDS = new Set<string>(SCREENS.map((s) => s.id));
export function formatRoute(r: Route): string {
  let hash = `#/${r.screen}`;
  if (r.findingId !== null) hash += `/${encodeURIComponent(r.findingId)}`;
  const q: string[] = [];
  if (r.source) q.push(`src=${encodeURIComponent(sourceKey(r.source))}`);
  if (r.viewer)
    for (const [k, v] of viewerParams(r.viewer)) q.push(`${k}=${encodeURIComponent(v)}`);
  if (r.screen === 'compare' && r.compare) {
    if (r.compare.before) q.push(`before=${encodeURIComponent(r.compare.before)}`);
    if (r.compare.after) q.push(`after=${encodeURIComponent(r.compare.after)}`);
  }
  if (r.screen === 'inventory' && r.inventory) q.push(...inventoryParams(r.inventory));
  if (r.object) q.push(`obj=${encodeURIComponent(`${r.object.kind}:${r.object.id}`)}`);
  return q.length > 0 ? `${hash}?${q.join('&')}` : hash;
}

/** Reads an address; anything unrecognised falls back to the Overview of the default source. */
export function parseRoute(hash: string): Route {
  const fallback: Route = { screen: 'overview', findingId: null, source: null };
  const m = /^#\/([a-z]+)(?:\/([^?]*))?(?:\?(.*))?$/.exec(hash);
  if (!m || !SCREEN_IDS.has(m[1] ?? '')) return fallback;
  let findingId: string | null = null;
  let source: ScanRequest | null = null;
  let viewer: Viewer | null;
  let compare: ComparePicksRoute | null = null;
  let inventory: InventoryRoute | null = null;
  let object: { kind: HnsObjectKind; id: string } | null;
  try {
    if (m[2]) findingId = decodeURIComponent(m[2]);
    const q = new URLSearchParams(m[3] ?? '');
    const src = q.get('src');
    if (src) source = parseSourceKey(src);
    viewer = parseViewer(q);
    if (m[1] === 'compare') {
      const picks = { before: pickParam(q.get('before')), after: pickParam(q.get('after')) };
      if (picks.before !== null || picks.after !== null) compare = picks;
    }
    if (m[1] === 'inventory') inventory = parseInventory(q);
    object = parseObject(q.get('obj'));
  } catch {
    return fallback; // a malformed %-escape
  }
  return {
    screen: m[1] as Screen,
    findingId,
    source,
    ...(viewer && { viewer }),
    ...(compare && { compare }),
    ...(inventory && { inventory }),
    ...(object && { object }),
  };
}
