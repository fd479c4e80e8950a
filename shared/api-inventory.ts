/**
 * The Inventory over the DoctorApi: the engine turns a scan's snapshot into tables once, and the
 * screen asks for one window of rows at a time (sorted and filtered by the engine), so a node with
 * 50,000 HNS endpoints never ships its whole snapshot to draw 20 rows. A row of an HNS table names
 * its object, whose JSON as the node returned it is fetched on demand (`hnsObject`).
 *
 * Browser-safe: types and constants only.
 */

export type InventoryTab =
  'cni' | 'runtime' | 'endpoints' | 'kubelet' | 'hns-networks' | 'hns-endpoints' | 'pipes';

export const INVENTORY_TABS: readonly { id: InventoryTab; label: string; windowsOnly?: true }[] = [
  { id: 'cni', label: 'CNI configs' },
  { id: 'runtime', label: 'Runtime configs' },
  { id: 'endpoints', label: 'CRI endpoints' },
  { id: 'kubelet', label: 'kubelet' },
  { id: 'hns-networks', label: 'HNS networks', windowsOnly: true },
  { id: 'hns-endpoints', label: 'HNS endpoints', windowsOnly: true },
  { id: 'pipes', label: 'Named pipes', windowsOnly: true },
];

export type HnsObjectKind = 'network' | 'endpoint' | 'namespace' | 'policyList';

export const INVENTORY_LIMITS = {
  /** Rows per request when the request does not say. */
  defaultRows: 200,
  maxRows: 1000,
  maxOffset: 10_000_000,
  maxFilterChars: 200,
  /** A longer cell (a hostile file name, a huge flag value) is cut, ending in "…". */
  maxCellChars: 4096,
  /** The rows of one answer, serialised; with the headers an answer stays far below 2 MB. */
  maxRowBytes: 1024 * 1024,
  /** An HNS object's pretty-printed JSON beyond this is cut (the answer says so). */
  maxObjectBytes: 1024 * 1024,
} as const;

export interface InventoryColumn {
  label: string;
  /** CSS grid track, e.g. "2fr" or "8rem". */
  width: string;
}

export interface InventoryRequest {
  scanId: string;
  tab: InventoryTab;
  /** Which of the tab's tables (most tabs have one; CNI and CRI have two). Default 0. */
  table?: number;
  /** First row of the window, counted after sorting and filtering. Default 0. */
  offset?: number;
  /** Default INVENTORY_LIMITS.defaultRows, at most maxRows. */
  limit?: number;
  /** Without it, the order the engine read them in (the CNI folders' load order). */
  sort?: { column: number; descending?: boolean };
  /** Case-insensitive text every shown row contains in some cell. */
  filter?: string;
}

export interface InventoryTableInfo {
  title: string;
  columns: InventoryColumn[];
  /** All rows, before the filter. */
  total: number;
  /** Why the table is empty or partial ("could not determine …"). */
  note?: string;
  /** Column 0 holds the id of an HNS object of this kind (its raw JSON: `hnsObject`). */
  objects?: HnsObjectKind;
}

export interface InventoryPage {
  scanId: string;
  tab: InventoryTab;
  /** Every table of the tab, headers only. */
  tables: InventoryTableInfo[];
  table: number;
  /** Rows that pass the filter (all of them without one). */
  matched: number;
  offset: number;
  /** From `offset`: up to `limit` rows, fewer at the end or when they would exceed maxRowBytes. */
  rows: string[][];
}

export interface HnsObjectRequest {
  scanId: string;
  kind: HnsObjectKind;
  id: string;
}

export interface HnsObject {
  scanId: string;
  kind: HnsObjectKind;
  id: string;
  /** The object as the node's HNS returned it, pretty-printed. Untrusted text: show it as text. */
  json: string;
  /** Set when `json` was cut at maxObjectBytes: the whole object's size in bytes. */
  truncatedFrom?: number;
  /** Which surface produced it (v1 module, hnsdiag, v2 …), when the collection said. */
  source?: string;
}
