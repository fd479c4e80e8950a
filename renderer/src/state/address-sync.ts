/**
 * Keeps the address bar and the view in step: a screen, a finding or a source chosen in the app
 * becomes a history entry (so Back/Forward move inside the app), and an address (reload, Back,
 * a pasted link) becomes the view. Electron and the browser share it: both load the page with
 * a `#` address.
 */
import { formatRoute, parseRoute, type Route } from './route';
import { useView } from './view-store';
import { useComparePicks } from './compare-store';
import { useInventoryTables } from './inventory-tables';
import { useOpenObject, type OpenObject } from './open-object';

function currentRoute(): Route {
  const v = useView.getState();
  const c = useComparePicks.getState();
  return {
    screen: v.screen,
    findingId: v.selectedFindingId,
    source: v.source,
    viewer: v.viewer,
    compare: { before: c.before, after: c.after },
    inventory: { tab: v.inventoryTab, tables: useInventoryTables.getState().tables },
    object: objectOf(useOpenObject.getState().open),
  };
}

function objectOf(o: OpenObject | null): Route['object'] {
  return o ? { kind: o.kind, id: o.id } : null;
}

/** While an address is being applied, its parts change one store at a time: not steps. */
let applying = false;

function apply(route: Route): void {
  applying = true;
  try {
    restoreAll(route);
  } finally {
    applying = false;
  }
}

function restoreAll(route: Route): void {
  // The tables first: the view's change is what a step of history is made of.
  if (route.screen === 'inventory')
    useInventoryTables.getState().restore(route.inventory?.tables ?? {});
  useView.getState().restore({
    ...route,
    ...(route.screen === 'inventory' && { inventoryTab: route.inventory?.tab ?? 'cni' }),
  });
  // Back past the address that opened an HNS object's dialog closes it (newcomer review 3.2).
  const o = useOpenObject.getState();
  if (route.object) o.show({ scanId: null, ...route.object });
  else if (o.open) o.close();
  const c = route.compare;
  if (!c) return;
  // A Compare address with both sides (a pasted or shared link, a reload) shows the comparison,
  // not only the form; a side that is a source is scanned for it (newcomer review, README 6).
  if (route.screen === 'compare' && c.before && c.after)
    useComparePicks.getState().runNow(c.before, c.after);
  else useComparePicks.getState().restore(c.before, c.after);
}

/** Call once before the first render; returns a function that stops the syncing. */
export function startAddressSync(win: Window = window): () => void {
  apply(parseRoute(win.location.hash));
  // The first address is replaced, not pushed: Back from the first screen leaves the app as
  // it would from any page, but nothing in the app adds an entry the user did not make.
  win.history.replaceState(null, '', formatRoute(currentRoute()));

  const onPop = (): void => apply(parseRoute(win.location.hash));
  win.addEventListener('popstate', onPop);
  win.addEventListener('hashchange', onPop);
  const unsubscribe = useView.subscribe(() => {
    if (applying) return;
    const next = formatRoute(currentRoute());
    if (next !== win.location.hash) win.history.pushState(null, '', next);
  });
  // The Compare sides refine the screen's address in place: a pick (or its default) is not a
  // step Back should undo one by one.
  const replace = (): void => {
    if (applying) return;
    const next = formatRoute(currentRoute());
    if (next !== win.location.hash) win.history.replaceState(null, '', next);
  };
  const unsubscribePicks = useComparePicks.subscribe(replace);
  // An Inventory table's filter and sort likewise: each keystroke is not a step Back undoes.
  const unsubscribeTables = useInventoryTables.subscribe(replace);
  // Opening an HNS object's dialog is a step (Back closes it); closing it replaces that step.
  const unsubscribeObject = useOpenObject.subscribe((s, before) => {
    if (applying) return;
    const next = formatRoute(currentRoute());
    if (next === win.location.hash) return;
    if (s.open && !before.open) win.history.pushState(null, '', next);
    else win.history.replaceState(null, '', next);
  });
  return () => {
    unsubscribe();
    unsubscribePicks();
    unsubscribeTables();
    unsubscribeObject();
    win.removeEventListener('popstate', onPop);
    win.removeEventListener('hashchange', onPop);
  };
}
