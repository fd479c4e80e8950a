/** Everything the scan read, as tables: CNI configs, runtime settings, CRI, kubelet, HNS, pipes. */
import { useMemo } from 'react';
import type { ScanResponse } from '../../../shared/api';
import type { Snapshot } from '../../../shared/model/snapshot';
import { ErrorNotice } from '../components/ErrorNotice';
import { VirtualTable } from '../components/VirtualTable';
import {
  cniTables,
  endpointTables,
  hnsEndpointTables,
  hnsNetworkTables,
  kubeletTables,
  pipeTables,
  runtimeTables,
  type InventoryTable,
} from '../lib/inventory-rows';
import { useInventory } from '../queries/use-doctor';
import { useView, type InventoryTab } from '../state/view-store';

const TABS: {
  id: InventoryTab;
  label: string;
  build: (s: Snapshot) => InventoryTable[];
  windowsOnly?: boolean;
}[] = [
  { id: 'cni', label: 'CNI configs', build: cniTables },
  { id: 'runtime', label: 'Runtime configs', build: runtimeTables },
  { id: 'endpoints', label: 'CRI endpoints', build: endpointTables },
  { id: 'kubelet', label: 'kubelet', build: kubeletTables },
  { id: 'hns-networks', label: 'HNS networks', build: hnsNetworkTables, windowsOnly: true },
  { id: 'hns-endpoints', label: 'HNS endpoints', build: hnsEndpointTables, windowsOnly: true },
  { id: 'pipes', label: 'Named pipes', build: pipeTables, windowsOnly: true },
];

export function Inventory({ scan }: { scan: ScanResponse }) {
  const tab = useView((v) => v.inventoryTab);
  const setTab = useView((v) => v.setInventoryTab);
  const inv = useInventory(scan.scanId);
  const windows = scan.report.node.os === 'windows';
  const tabs = TABS.filter((t) => windows || !t.windowsOnly);
  const active = tabs.find((t) => t.id === tab) ?? tabs[0];
  const tables = useMemo(
    () => (inv.data && active ? active.build(inv.data.snapshot) : []),
    [inv.data, active],
  );

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
        {inv.isPending && <p role="status">Loading the snapshot…</p>}
        {inv.error && <ErrorNotice error={inv.error} retry={() => void inv.refetch()} />}
        {tables.map((t) => (
          <VirtualTable key={t.title} table={t} />
        ))}
      </div>
    </div>
  );
}
