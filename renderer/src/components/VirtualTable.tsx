/**
 * A table that stays smooth at 50,000 rows without holding them: only the rows in view are in the
 * DOM (@tanstack/react-virtual), and only the 200-row windows in view are fetched from the engine
 * (which sorts and filters the whole table). The scroll area is focusable so keyboard users can
 * scroll it; column headers are buttons that sort.
 */
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { InventoryTab, InventoryTableInfo } from '../../../shared/api-inventory';
import { ID_PATTERNS } from '../../../shared/api';
import { INVENTORY_PAGE_ROWS, useInventoryPage, useInventoryPages } from '../queries/use-doctor';
import { ErrorNotice } from './ErrorNotice';
import { HnsObjectButton } from './HnsObject';
import { NO_TABLE_VIEW, useInventoryTables } from '../state/inventory-tables';

const ROW_HEIGHT = 30;

const rowCount = (n: number): string => `${n.toLocaleString()} ${n === 1 ? 'row' : 'rows'}`;

type Sort = { column: number; descending: boolean } | undefined;

/** ascending → descending → the engine's order. */
const nextSort = (s: Sort, column: number): Sort =>
  s?.column !== column
    ? { column, descending: false }
    : s.descending
      ? undefined
      : { column, descending: true };

function useDebounced(value: string, ms: number): string {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export function VirtualTable({
  scanId,
  tab,
  table,
  info,
  maxHeight = 520,
}: {
  scanId: string;
  tab: InventoryTab;
  table: number;
  info: InventoryTableInfo;
  maxHeight?: number;
}) {
  const view = useInventoryTables((s) => s.tables[table] ?? NO_TABLE_VIEW);
  const query = view.query;
  const setQuery = (q: string): void => useInventoryTables.getState().setQuery(table, q);
  const filter = useDebounced(query.trim(), 150);
  const sort: Sort = view.sort ?? undefined;
  const setSort = (next: (s: Sort) => Sort): void =>
    useInventoryTables.getState().setSort(table, next(sort) ?? null);
  const req = useMemo(
    () => ({
      scanId,
      tab,
      table,
      ...(sort && { sort }),
      ...(filter !== '' && { filter }),
    }),
    [scanId, tab, table, sort, filter],
  );
  // Page 0 says how many rows match; while a new filter is asked, the last answer stays.
  const head = useInventoryPage(req, 0);
  const matched = head.data?.matched ?? info.total;

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: matched,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 16,
  });
  const items = virtualizer.getVirtualItems();
  const firstPage = Math.floor((items[0]?.index ?? 0) / INVENTORY_PAGE_ROWS);
  const lastPage = Math.floor((items[items.length - 1]?.index ?? 0) / INVENTORY_PAGE_ROWS);
  const pageList = useDeferredValue(
    useMemo(() => {
      const out: number[] = [];
      for (let p = firstPage; p <= lastPage; p++) out.push(p);
      return out;
    }, [firstPage, lastPage]),
  );
  const pages = useInventoryPages(req, pageList);
  const rowAt = (i: number): string[] | undefined => {
    const p = Math.floor(i / INVENTORY_PAGE_ROWS);
    const data = p === 0 ? head.data : pages[pageList.indexOf(p)]?.data;
    // A page 0 kept from the previous filter is not this filter's rows.
    if (p === 0 && head.isPlaceholderData) return undefined;
    return data?.rows[i - p * INVENTORY_PAGE_ROWS];
  };
  const failed = head.error ?? pages.find((p) => p.error)?.error;

  const withJson = info.objects !== undefined;
  // The JSON button leads the row: HNS tables are wider than the window, and a trailing column
  // would sit off-screen.
  const template = (withJson ? '4rem ' : '') + info.columns.map((c) => c.width).join(' ');
  const height = Math.min(maxHeight, Math.max(ROW_HEIGHT * 2, matched * ROW_HEIGHT + 2));
  const id = `${tab}-${table}-${info.title.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}`;
  const busy = head.isFetching || pages.some((p) => p.isFetching);

  return (
    <section className="vtable-wrap" aria-labelledby={`${id}-title`}>
      <div className="vtable-caption">
        <h3 id={`${id}-title`}>{info.title}</h3>
        <span className="muted" aria-live="polite">
          {filter === ''
            ? rowCount(info.total)
            : `${matched.toLocaleString()} of ${rowCount(info.total)}`}
        </span>
        {info.total > 8 && (
          <input
            type="search"
            className="vtable-filter"
            placeholder="Filter"
            aria-label={`Filter ${info.title}`}
            value={query}
            maxLength={200}
            onChange={(e) => setQuery(e.target.value)}
          />
        )}
      </div>
      {info.note && <p className="note unknown-note">{info.note}</p>}
      {failed && <ErrorNotice error={failed} retry={() => void head.refetch()} />}
      {info.total === 0 ? (
        !info.note && <p className="muted">Nothing recorded.</p>
      ) : (
        <div className="vtable-scroll-x">
          <div
            className="vtable"
            role="table"
            aria-labelledby={`${id}-title`}
            aria-rowcount={matched + 1}
            aria-busy={busy}
          >
            <div role="rowgroup">
              <div
                role="row"
                aria-rowindex={1}
                className="vrow vhead"
                style={{ gridTemplateColumns: template }}
              >
                {withJson && (
                  <div role="columnheader" className="vcell">
                    JSON
                  </div>
                )}
                {info.columns.map((c, i) => (
                  <div
                    role="columnheader"
                    key={c.label}
                    className="vcell"
                    aria-sort={
                      sort?.column === i ? (sort.descending ? 'descending' : 'ascending') : 'none'
                    }
                  >
                    <button
                      type="button"
                      className="sort"
                      title={`Sort by ${c.label}`}
                      onClick={() => setSort((s) => nextSort(s, i))}
                    >
                      {c.label}
                      <span aria-hidden="true">
                        {sort?.column === i ? (sort.descending ? ' ▼' : ' ▲') : ''}
                      </span>
                    </button>
                  </div>
                ))}
              </div>
            </div>
            <div
              ref={scrollRef}
              role="rowgroup"
              className="vbody"
              tabIndex={0}
              aria-label={`${info.title} rows (scrollable)`}
              style={{ height }}
            >
              <div
                role="presentation"
                style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
              >
                {items.map((item) => {
                  const row = rowAt(item.index);
                  return (
                    <div
                      role="row"
                      key={item.key}
                      aria-rowindex={item.index + 2}
                      aria-busy={row ? undefined : true}
                      className={item.index % 2 ? 'vrow odd' : 'vrow'}
                      style={{
                        gridTemplateColumns: template,
                        transform: `translateY(${item.start}px)`,
                        height: item.size,
                      }}
                    >
                      {withJson && (
                        <div role="cell" className="vcell">
                          {row?.[0] && info.objects && ID_PATTERNS.hnsId.test(row[0]) && (
                            <HnsObjectButton
                              scanId={scanId}
                              kind={info.objects}
                              id={row[0]}
                              label="JSON"
                            />
                          )}
                        </div>
                      )}
                      {info.columns.map((c, i) => (
                        <div role="cell" key={c.label} className="vcell" title={row?.[i]}>
                          {row ? row[i] : i === 0 ? '…' : ''}
                        </div>
                      ))}
                    </div>
                  );
                })}
              </div>
            </div>
          </div>
        </div>
      )}
    </section>
  );
}
