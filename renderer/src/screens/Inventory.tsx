/**
 * Everything the scan read, as tables: CNI configs, runtime settings, CRI, kubelet, HNS, pipes.
 * The engine holds the rows; each table fetches the windows in view (components/VirtualTable).
 */
import type { ScanResponse } from '../../../shared/api';
import { INVENTORY_TABS } from '../../../shared/api-inventory';
import { ErrorNotice } from '../components/ErrorNotice';
import { VirtualTable } from '../components/VirtualTable';
import { LoadOrderLane } from '../components/LoadOrderLane';
import { useInventoryPage } from '../queries/use-doctor';
import { useView } from '../state/view-store';
import { useInventoryTables } from '../state/inventory-tables';
import type { InventoryTab } from '../../../shared/api-inventory';

export function Inventory({ scan }: { scan: ScanResponse }) {
  const tab = useView((v) => v.inventoryTab);
  const setInventoryTab = useView((v) => v.setInventoryTab);
  // Another tab's tables start unfiltered, in the engine's order.
  const setTab = (t: InventoryTab): void => {
    if (t === tab) return;
    useInventoryTables.getState().restore({});
    setInventoryTab(t);
  };
  const windows = scan.report.node.os === 'windows';
  const tabs = INVENTORY_TABS.filter((t) => windows || !t.windowsOnly);
  const active = tabs.find((t) => t.id === tab) ?? tabs[0];
  // The first window of the first table also lists the tab's tables; the table asks for the
  // same window, so it is one request.
  const first = useInventoryPage({ scanId: scan.scanId, tab: active?.id ?? 'cni', table: 0 });
  const tables = first.data && first.data.tab === active?.id ? first.data.tables : [];

  return (
    <div className="screen inventory">
      <h1>Inventory</h1>
      <div role="tablist" aria-label="Inventory tables" className="tabs">
        {tabs.map((t) => (
          <button
            key={t.id}
            role="tab"
            type="button"
            id={`tab-${t.id}`}
            aria-selected={active?.id === t.id}
            aria-controls="inventory-panel"
            tabIndex={active?.id === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
            onKeyDown={(e) => {
              const i = tabs.findIndex((x) => x.id === t.id);
              const next =
                e.key === 'ArrowRight'
                  ? tabs[(i + 1) % tabs.length]
                  : e.key === 'ArrowLeft'
                    ? tabs[(i - 1 + tabs.length) % tabs.length]
                    : undefined;
              if (next) {
                setTab(next.id);
                document.getElementById(`tab-${next.id}`)?.focus();
              }
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id="inventory-panel"
        aria-labelledby={active ? `tab-${active.id}` : undefined}
      >
        {active?.id === 'cni' &&
          (scan.report.loadOrder ?? []).map((l) => (
            <section
              key={l.runtime}
              className="card"
              aria-label={`Load order of ${l.label}`}
              data-testid="inventory-lane"
            >
              <h2>
                Load order of {l.label} <code className="small">{l.side.confDir}</code>
                {!l.usedByKubelet && (
                  <span className="muted small"> (not the kubelet's runtime)</span>
                )}
              </h2>
              <LoadOrderLane side={l.side} runtime={l.label} omitted={l.omitted ?? 0} />
            </section>
          ))}
        {tables.length === 0 && first.isFetching && <p role="status">Loading the tables…</p>}
        {first.error && <ErrorNotice error={first.error} retry={() => void first.refetch()} />}
        {active &&
          tables.map((t, i) => (
            <VirtualTable
              key={`${scan.scanId}:${active.id}:${i}`}
              scanId={scan.scanId}
              tab={active.id}
              table={i}
              info={t}
            />
          ))}
      </div>
    </div>
  );
}
