/**
 * A table that stays smooth at 50,000 rows: only the rows in view are in the DOM
 * (@tanstack/react-virtual). The scroll area is focusable so keyboard users can scroll it.
 */
import { useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { InventoryTable } from '../lib/inventory-rows';

const ROW_HEIGHT = 30;

const rowCount = (n: number): string => `${n.toLocaleString()} ${n === 1 ? 'row' : 'rows'}`;

export function VirtualTable({
  table,
  maxHeight = 520,
}: {
  table: InventoryTable;
  maxHeight?: number;
}) {
  const [query, setQuery] = useState('');
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return table.rows;
    return table.rows.filter((r) => r.some((c) => c.toLowerCase().includes(q)));
  }, [table.rows, query]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 16,
  });
  const template = table.columns.map((c) => c.width).join(' ');
  const height = Math.min(maxHeight, Math.max(ROW_HEIGHT * 2, rows.length * ROW_HEIGHT + 2));
  const id = table.title.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase();

  return (
    <section className="vtable-wrap" aria-labelledby={`${id}-title`}>
      <div className="vtable-caption">
        <h3 id={`${id}-title`}>{table.title}</h3>
        <span className="muted" aria-live="polite">
          {rows.length === table.rows.length
            ? rowCount(table.rows.length)
            : `${rows.length.toLocaleString()} of ${rowCount(table.rows.length)}`}
        </span>
        {table.rows.length > 8 && (
          <input
            type="search"
            className="vtable-filter"
            placeholder="Filter"
            aria-label={`Filter ${table.title}`}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        )}
      </div>
      {table.note && <p className="note unknown-note">{table.note}</p>}
      {table.rows.length === 0 ? (
        !table.note && <p className="muted">Nothing recorded.</p>
      ) : (
        <div className="vtable-scroll-x">
          <div
            className="vtable"
            role="table"
            aria-labelledby={`${id}-title`}
            aria-rowcount={rows.length + 1}
          >
            <div role="rowgroup">
              <div
                role="row"
                aria-rowindex={1}
                className="vrow vhead"
                style={{ gridTemplateColumns: template }}
              >
                {table.columns.map((c) => (
                  <div role="columnheader" key={c.label} className="vcell" title={c.label}>
                    {c.label}
                  </div>
                ))}
              </div>
            </div>
            <div
              ref={scrollRef}
              role="rowgroup"
              className="vbody"
              tabIndex={0}
              aria-label={`${table.title} rows (scrollable)`}
              style={{ height }}
            >
              <div
                role="presentation"
                style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
              >
                {virtualizer.getVirtualItems().map((item) => {
                  const row = rows[item.index] ?? [];
                  return (
                    <div
                      role="row"
                      key={item.key}
                      aria-rowindex={item.index + 2}
                      className={item.index % 2 ? 'vrow odd' : 'vrow'}
                      style={{
                        gridTemplateColumns: template,
                        transform: `translateY(${item.start}px)`,
                        height: item.size,
                      }}
                    >
                      {table.columns.map((c, i) => (
                        <div role="cell" key={c.label} className="vcell" title={row[i]}>
                          {row[i]}
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
