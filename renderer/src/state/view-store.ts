/** What the user is looking at. Engine data lives in TanStack Query, never here. */
import { create } from 'zustand';
import type { ScanRequest } from '../../../shared/api';
import type { InventoryTab } from '../../../shared/api-inventory';
import type { Severity } from '../../../shared/model/finding';
import type { Viewer } from './viewer-route';

export type Screen =
  | 'overview'
  | 'findings'
  | 'inventory'
  | 'checks'
  | 'history'
  | 'targets'
  | 'bundles'
  | 'demo'
  | 'compare'
  | 'cluster';

export const SCREENS: readonly { id: Screen; label: string }[] = [
  { id: 'overview', label: 'Overview' },
  { id: 'findings', label: 'Findings' },
  { id: 'inventory', label: 'Inventory' },
  { id: 'checks', label: 'Checks' },
  { id: 'history', label: 'History' },
  { id: 'targets', label: 'Targets' },
  { id: 'bundles', label: 'Bundles' },
  { id: 'demo', label: 'Demo' },
  { id: 'compare', label: 'Compare' },
  { id: 'cluster', label: 'Cluster' },
];

export type { InventoryTab };

interface View {
  screen: Screen;
  /** null: the door's default source (live node, or `serve --bundle`). */
  source: ScanRequest | null;
  selectedFindingId: string | null;
  /** A file, log or CRI viewer over the screen (its address keeps it across a reload). */
  viewer: Viewer | null;
  severities: Record<Severity, boolean>;
  text: string;
  showMuted: boolean;
  inventoryTab: InventoryTab;
  go(screen: Screen): void;
  /** Shows what an address names (reload, Back/Forward, a pasted link). */
  restore(route: {
    screen: Screen;
    findingId: string | null;
    source: ScanRequest | null;
    viewer?: Viewer | null;
    /** The Inventory's tab when the address names one (else it stays as it is). */
    inventoryTab?: InventoryTab;
  }): void;
  openViewer(v: Viewer): void;
  closeViewer(): void;
  setSource(source: ScanRequest): void;
  openFinding(id: string): void;
  closeFinding(): void;
  toggleSeverity(s: Severity): void;
  setText(text: string): void;
  setShowMuted(v: boolean): void;
  setInventoryTab(t: InventoryTab): void;
}

export const useView = create<View>()((set) => ({
  screen: 'overview',
  source: null,
  selectedFindingId: null,
  viewer: null,
  severities: { error: true, warning: true, info: true },
  text: '',
  showMuted: false,
  inventoryTab: 'cni',
  go: (screen) => set({ screen, selectedFindingId: null, viewer: null }),
  restore: (route) =>
    set({
      screen: route.screen,
      selectedFindingId: route.findingId,
      source: route.source,
      viewer: route.viewer ?? null,
      ...(route.inventoryTab && { inventoryTab: route.inventoryTab }),
    }),
  setSource: (source) => set({ source, selectedFindingId: null, screen: 'overview', viewer: null }),
  openFinding: (id) => set({ selectedFindingId: id, viewer: null }),
  openViewer: (viewer) => set({ viewer }),
  closeViewer: () => set({ viewer: null }),
  closeFinding: () => set({ selectedFindingId: null }),
  toggleSeverity: (s) => set((v) => ({ severities: { ...v.severities, [s]: !v.severities[s] } })),
  setText: (text) => set({ text }),
  setShowMuted: (showMuted) => set({ showMuted }),
  setInventoryTab: (inventoryTab) => set({ inventoryTab }),
}));
