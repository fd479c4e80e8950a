/**
 * The Inventory's rows, served a window at a time. A scan's tables are built once (on the first
 * request for a tab) and kept with the scan: the cache is a WeakMap keyed by the scan's entry, so
 * it lives exactly as long as ScanSessions holds the scan (a bounded few). Sorting and filtering
 * happen here, on the whole table, and their row orders are kept (a few per table) so scrolling
 * through a sorted or filtered table costs a slice, not a sort.
 */
import {
  INVENTORY_LIMITS,
  INVENTORY_TABS,
  type InventoryPage,
  type InventoryRequest,
  type InventoryTab,
  type InventoryTableInfo,
} from '../../shared/api-inventory';
import { TAB_TABLES } from '../../shared/inventory-rows';
import type { Snapshot } from '../../shared/model/snapshot';
import { ApiError } from './errors';

/** Row orders kept per table (sort × filter combinations); the oldest goes first. */
const ORDERS_PER_TABLE = 6;

interface PreparedTable {
  info: InventoryTableInfo;
  rows: string[][];
  /** Lower-cased text of each row, built on the first filter. */
  haystack?: string[];
  orders: Map<string, Uint32Array>;
}

const cut = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

function prepare(snapshot: Snapshot, tab: InventoryTab): PreparedTable[] {
  return TAB_TABLES[tab](snapshot).map((t) => {
    const max = INVENTORY_LIMITS.maxCellChars;
    // Cells come from the node (file names, flag values): a hostile one is cut once, here.
    const rows = t.rows.map((r) => (r.some((c) => c.length > max) ? r.map((c) => cut(c, max)) : r));
    return {
      info: {
        title: t.title,
        columns: t.columns,
        total: rows.length,
        ...(t.note !== undefined && { note: cut(t.note, max) }),
        ...(t.objects && { objects: t.objects }),
      },
      rows,
      orders: new Map(),
    };
  });
}

/**
 * A sort key that orders digit runs by value ("10.0.0.9" before "10.0.0.10", row 2 before 10)
 * and ignores case, so the engine sorts with plain string comparison.
 */
function sortKey(cell: string): string {
  return cell.toLowerCase().replace(/\d+/g, (d) => {
    const n = d.replace(/^0+(?=\d)/, '');
    return String.fromCharCode(0x30 + Math.min(n.length, 40)) + n;
  });
}

function sortedOrder(t: PreparedTable, column: number, descending: boolean): Uint32Array {
  const name = `sort:${column}:${descending ? 'd' : 'a'}`;
  const hit = t.orders.get(name);
  if (hit) return hit;
  const keys = t.rows.map((r) => sortKey(r[column] ?? ''));
  const order = Uint32Array.from(t.rows, (_, i) => i);
  // Stable: equal keys keep the engine's order (Array.prototype.sort is stable; typed arrays too).
  order.sort((a, b) => {
    const x = keys[a] as string;
    const y = keys[b] as string;
    const c = x < y ? -1 : x > y ? 1 : a - b;
    return descending && x !== y ? -c : c;
  });
  return remember(t, name, order);
}

function remember(t: PreparedTable, name: string, order: Uint32Array): Uint32Array {
  t.orders.set(name, order);
  while (t.orders.size > ORDERS_PER_TABLE) t.orders.delete(t.orders.keys().next().value as string);
  return order;
}

function rowOrder(t: PreparedTable, req: InventoryRequest): Uint32Array | undefined {
  const sort = req.sort;
  const filter = req.filter?.trim().toLowerCase() ?? '';
  const base = sort ? sortedOrder(t, sort.column, sort.descending === true) : undefined;
  if (filter === '') return base;
  const name = `${sort ? `sort:${sort.column}:${sort.descending ? 'd' : 'a'}` : 'read'}|${filter}`;
  const hit = t.orders.get(name);
  if (hit) return hit;
  // A separator no cell search can match across, so "a b" never matches "…a" + "b…".
  const hay = (t.haystack ??= t.rows.map((r) => r.join('\u0000').toLowerCase()));
  const out: number[] = [];
  if (base) {
    for (const i of base) if ((hay[i] as string).includes(filter)) out.push(i);
  } else for (let i = 0; i < hay.length; i++) if ((hay[i] as string).includes(filter)) out.push(i);
  return remember(t, name, Uint32Array.from(out));
}

export class InventoryPages {
  private readonly tabs = new WeakMap<object, Map<InventoryTab, PreparedTable[]>>();

  /** `scan` is the object that identifies the held scan (its lifetime bounds the cache). */
  page(scan: object, snapshot: Snapshot, req: InventoryRequest): InventoryPage {
    let byTab = this.tabs.get(scan);
    if (!byTab) {
      this.tabs.set(scan, (byTab = new Map()));
      // Someone opened this scan's Inventory: build its other tabs (50,000 HNS endpoints take
      // tens of milliseconds) right after this answer, before the next click asks for them.
      const tabs = byTab;
      setImmediate(() => {
        for (const t of INVENTORY_TABS) {
          try {
            if (!tabs.has(t.id)) tabs.set(t.id, prepare(snapshot, t.id));
          } catch {
            // Not kept: the request for that tab builds it again and answers the error.
          }
        }
      });
    }
    let tables = byTab.get(req.tab);
    if (!tables) byTab.set(req.tab, (tables = prepare(snapshot, req.tab)));

    const index = req.table ?? 0;
    const t = tables[index];
    if (!t) throw new ApiError('not-found', `the ${req.tab} tab has ${tables.length} table(s)`);
    if (req.sort && req.sort.column >= t.info.columns.length)
      throw new ApiError('bad-request', `the table has ${t.info.columns.length} columns`);

    const order = rowOrder(t, req);
    const matched = order ? order.length : t.rows.length;
    const offset = Math.min(req.offset ?? 0, matched);
    const end = Math.min(matched, offset + (req.limit ?? INVENTORY_LIMITS.defaultRows));
    const rows: string[][] = [];
    let bytes = 0;
    for (let i = offset; i < end; i++) {
      const row = t.rows[order ? (order[i] as number) : i] as string[];
      // Exact serialised size: escapes (quotes, control characters) count as sent.
      bytes += Buffer.byteLength(JSON.stringify(row)) + 1;
      if (bytes > INVENTORY_LIMITS.maxRowBytes && rows.length > 0) break;
      rows.push(row);
    }
    return {
      scanId: req.scanId,
      tab: req.tab,
      tables: tables.map((x) => x.info),
      table: index,
      matched,
      offset,
      rows,
    };
  }
}
