/**
 * Keeps the address bar and the view in step: a screen, a finding or a source chosen in the app
 * becomes a history entry (so Back/Forward move inside the app), and an address (reload, Back,
 * a pasted link) becomes the view. Electron and the browser share it: both load the page with
 * a `#` address.
 */
import { formatRoute, parseRoute, type Route } from './route';
import { useView } from './view-store';
import { useComparePicks } from './compare-store';

function currentRoute(): Route {
  const v = useView.getState();
  const c = useComparePicks.getState();
  return {
    screen: v.screen,
    findingId: v.selectedFindingId,
    source: v.source,
    viewer: v.viewer,
    compare: { before: c.before, after: c.after },
  };
}

function apply(route: Route): void {
  useView.getState().restore(route);
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
    const next = formatRoute(currentRoute());
    if (next !== win.location.hash) win.history.pushState(null, '', next);
  });
  // The Compare sides refine the screen's address in place: a pick (or its default) is not a
  // step Back should undo one by one.
  const unsubscribePicks = useComparePicks.subscribe(() => {
    const next = formatRoute(currentRoute());
    if (next !== win.location.hash) win.history.replaceState(null, '', next);
  });
  return () => {
    unsubscribe();
    unsubscribePicks();
    win.removeEventListener('popstate', onPop);
    win.removeEventListener('hashchange', onPop);
  };
}
