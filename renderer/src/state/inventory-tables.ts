/**
 * Each Inventory table's filter text and sort, by its index in the open tab. Held here, not in
 * the table, so the address carries them (a reload or a shared link keeps "HNS endpoints,
 * filtered on stale, sorted by IP"; newcomer review 3.6) and a table scrolled out of React's
 * tree keeps them.
 */
import { create } from 'zustand';

export interface TableSort {
  column: number;
  descending: boolean;
}
export interface TableView {
  query: string;
  sort: TableSort | null;
}
export type TableViews = Readonly<Record<number, TableView>>;

export const NO_TABLE_VIEW: TableView = { query: '', sort: null };

export const useInventoryTables = create<{
  tables: TableViews;
  setQuery(table: number, query: string): void;
  setSort(table: number, sort: TableSort | null): void;
  restore(tables: TableViews): void;
}>((set) => ({
  tables: {},
  setQuery: (table, query) =>
    set((s) => ({
      tables: { ...s.tables, [table]: { ...(s.tables[table] ?? NO_TABLE_VIEW), query } },
    })),
  setSort: (table, sort) =>
    set((s) => ({
      tables: { ...s.tables, [table]: { ...(s.tables[table] ?? NO_TABLE_VIEW), sort } },
    })),
  restore: (tables) => set({ tables }),
}));
