/** The window: header, screen list, the current screen, and the finding detail panel. */
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import type { ScanResponse } from '../../shared/api';
import { useDetailWidthVariable } from './components/DetailResizer';
import { AccessBanner } from './components/AccessBanner';
import { CredentialDialog } from './components/CredentialDialog';
import { ErrorNotice } from './components/ErrorNotice';
import { ExportReport } from './components/ExportReport';
import { Nav } from './components/Nav';
import { ScanProgress } from './components/ScanProgress';
import { ScreenBoundary } from './components/ScreenBoundary';
import { ThemeToggle } from './components/ThemeToggle';
import {
  useCurrentSource,
  useInfo,
  useNodeFocus,
  useNoNodeChosen,
  useRescan,
  useScan,
} from './queries/use-doctor';
import { asApiError } from './api/errors';
import { nodeLine } from './lib/node-focus';
import { useHeaderHeightVariable } from './lib/header-height';
import { NodePicker, Targets } from './screens/Targets';
import { usePrefs } from './state/prefs-store';
import { useView } from './state/view-store';
import { useOpenObject } from './state/open-object';
import { Findings } from './screens/Findings';
import { Overview } from './screens/Overview';

// Screens the first view does not need load on demand, so the first finding appears sooner.
const HnsObjectHost = lazy(() =>
  import('./components/HnsObject').then((m) => ({ default: m.HnsObjectHost })),
);
/**
 * The Inventory's module once loaded (it is fetched while the browser is idle after the first
 * scan): rendered directly, so opening the screen does not suspend — React holds content back
 * for up to 300 ms after a Suspense fallback, which would be most of a click's budget.
 */
let inventoryModule: typeof import('./screens/Inventory') | undefined;
const loadInventory = () => import('./screens/Inventory').then((m) => (inventoryModule = m));
const LazyInventory = lazy(() => loadInventory().then((m) => ({ default: m.Inventory })));
function Inventory({ scan }: { scan: ScanResponse }) {
  const M = inventoryModule;
  return M ? <M.Inventory scan={scan} /> : <LazyInventory scan={scan} />;
}

/**
 * The finding detail's module, fetched with the Inventory's once a scan is shown: the first
 * "Show evidence" then opens at once. Fetched on the click, it once took over 30 s in a CI run at
 * load 30, with nothing on the screen meanwhile.
 */
const loadFindingDetail = () => import('./screens/detail/FindingDetail');

function usePreloadAfterScan(ready: boolean): void {
  useEffect(() => {
    if (!ready || inventoryModule) return;
    const load = (): void => {
      void loadInventory().catch(() => undefined);
      void loadFindingDetail().catch(() => undefined);
    };
    if ('requestIdleCallback' in window) {
      const id = requestIdleCallback(load, { timeout: 3000 });
      return () => cancelIdleCallback(id);
    }
    const t = setTimeout(load, 500);
    return () => clearTimeout(t);
  }, [ready]);
}
const Checks = lazy(() => import('./screens/Checks').then((m) => ({ default: m.Checks })));
const History = lazy(() => import('./screens/History').then((m) => ({ default: m.History })));
const Bundles = lazy(() => import('./screens/Bundles').then((m) => ({ default: m.Bundles })));
const Demo = lazy(() => import('./screens/Demo').then((m) => ({ default: m.Demo })));
const Compare = lazy(() => import('./screens/Compare').then((m) => ({ default: m.Compare })));
const Cluster = lazy(() => import('./screens/Cluster').then((m) => ({ default: m.Cluster })));
const WatchBar = lazy(() => import('./components/WatchBar').then((m) => ({ default: m.WatchBar })));
const ViewerPage = lazy(() =>
  import('./screens/viewers/ViewerPage').then((m) => ({ default: m.ViewerPage })),
);
const FindingDetail = lazy(() => loadFindingDetail().then((m) => ({ default: m.FindingDetail })));

function useThemeAttribute(): void {
  const theme = usePrefs((s) => s.theme);
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);
}

/** Escape closes the detail; focus returns to the control that opened it. */
function useDetailFocus(open: boolean, close: () => void): void {
  const opener = useRef<HTMLElement | null>(null);
  // A layout effect runs before the detail's own (passive) effect moves focus to its heading,
  // so this still sees the button that opened it.
  useLayoutEffect(() => {
    if (open)
      opener.current =
        document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }, [open]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent): void => {
      // An open dialog (an HNS object's JSON) takes Escape first.
      if (e.key === 'Escape' && !document.querySelector('dialog[open]')) {
        e.preventDefault();
        close();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      const back = opener.current;
      if (back?.isConnected) back.focus();
      else document.getElementById('main')?.focus();
    };
  }, [open, close]);
}

/** A screen about a node: the picker until one is chosen, then the node's scan. */
function NeedsScan({ children }: { children: (scan: ScanResponse) => ReactNode }) {
  const scan = useScan();
  const source = useCurrentSource();
  const noNode = useNoNodeChosen();
  if (noNode) return <NodePicker heading="Choose a node" />;
  if (scan.data) return <>{children(scan.data)}</>;
  // A link to a target this session never opened (serve restarted): offer it, do not reach it.
  if (scan.error && source?.source === 'target' && asApiError(scan.error).code === 'not-found')
    return <NodePicker heading="Choose a node" reopen={source.targetId} />;
  if (scan.error) return <ErrorNotice error={scan.error} retry={() => void scan.refetch()} />;
  return <p className="muted">Waiting for the first scan…</p>;
}

/** "Node: <name> via <transport>", on every screen, so it is always clear which node is meant. */
function NodeHeader({ scanning }: { scanning: boolean }) {
  const focus = useNodeFocus();
  const info = useInfo();
  if (!focus)
    return (
      <span className="source" aria-live="polite">
        {info.data ? 'No node chosen' : ''}
      </span>
    );
  const line = nodeLine(focus);
  return (
    <span className="source" aria-live="polite" data-testid="node-focus" title={line}>
      Node: <strong>{focus.name}</strong> via {focus.via}
      {scanning ? ' · scanning…' : ''}
    </span>
  );
}

export function App() {
  useThemeAttribute();
  useDetailWidthVariable();
  const header = useRef<HTMLElement>(null);
  useHeaderHeightVariable(header);
  const info = useInfo();
  const scan = useScan();
  const rescan = useRescan();
  const source = useCurrentSource();
  const noNode = useNoNodeChosen();
  const screen = useView((v) => v.screen);
  const selected = useView((v) => v.selectedFindingId);
  const objectOpen = useOpenObject((o) => o.open !== null);
  usePreloadAfterScan(scan.data !== undefined);
  const close = useView((v) => v.closeFinding);
  const viewer = useView((v) => v.viewer);
  // An open viewer covers the screen and its detail; Escape closes the viewer first.
  const detail = selected !== null && viewer === null;
  useDetailFocus(detail, close);

  const counts = scan.data
    ? {
        findings: scan.data.report.findings.length,
        unknown: scan.data.report.checks.filter((c) => c.status === 'unknown').length,
      }
    : undefined;

  return (
    <div className="app">
      <a href="#main" className="skip">
        Skip to content
      </a>
      <header className="top" ref={header}>
        <span className="brand">cni-doctor</span>
        <NodeHeader scanning={scan.isFetching} />
        <span className="spacer" />
        {scan.data && <ExportReport scan={scan.data} />}
        {/* Nothing to scan again until the door has said which node it is on (or none). */}
        <button type="button" onClick={() => void rescan()} disabled={scan.isFetching || !source}>
          Rescan
        </button>
        <ThemeToggle />
      </header>
      <Nav {...(counts && { counts })} />
      <main id="main" tabIndex={-1} className={detail ? 'with-detail' : ''}>
        <ScanProgress active={scan.isFetching} />
        <Suspense fallback={null}>
          {scan.data && <WatchBar scan={scan.data} fetching={scan.isFetching} />}
        </Suspense>
        {scan.data?.report.access && !viewer && <AccessBanner access={scan.data.report.access} />}
        {info.error && <ErrorNotice error={info.error} retry={() => void info.refetch()} />}
        {!viewer && screen === 'overview' && <NeedsScan>{(s) => <Overview scan={s} />}</NeedsScan>}
        {!viewer && screen === 'findings' && <NeedsScan>{(s) => <Findings scan={s} />}</NeedsScan>}
        <ScreenBoundary screen={viewer ? `viewer:${viewer.kind}` : screen}>
          <Suspense fallback={<p className="muted">Loading…</p>}>
            {viewer && <NeedsScan>{(s) => <ViewerPage scan={s} viewer={viewer} />}</NeedsScan>}
            {!viewer && screen === 'inventory' && (
              <NeedsScan>{(s) => <Inventory scan={s} />}</NeedsScan>
            )}
            {!viewer && screen === 'checks' && <NeedsScan>{(s) => <Checks scan={s} />}</NeedsScan>}
            {!viewer &&
              screen === 'history' &&
              (noNode ? <NodePicker heading="Choose a node" /> : <History />)}
            {!viewer && screen === 'targets' && <Targets />}
            {!viewer && screen === 'bundles' && <Bundles />}
            {!viewer && screen === 'demo' && <Demo />}
            {!viewer && screen === 'compare' && <Compare scan={scan.data} />}
            {!viewer && screen === 'cluster' && <Cluster />}
          </Suspense>
        </ScreenBoundary>
      </main>
      <ScreenBoundary screen={selected ?? 'none'}>
        <Suspense fallback={null}>
          {detail && scan.data && <FindingDetail scan={scan.data} findingId={selected} />}
          {objectOpen && <HnsObjectHost />}
        </Suspense>
      </ScreenBoundary>
      <CredentialDialog />
    </div>
  );
}
