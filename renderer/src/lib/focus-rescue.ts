/**
 * Keyboard focus never falls to the page body (issue 22 point 7). When the focused control is
 * taken out of the page (a screen or panel replaced it, a button turned into a status line) or
 * disabled, focus moves to the heading of the nearest part of the page that is still there (the
 * repair section, the detail panel, the screen), or to the new screen's heading once it appears.
 * Explicit moves (a panel's heading, a result message) still win: this only runs when focus is
 * on nothing.
 */

const HEADINGS = 'h1, h2, h3, h4';
const REGIONS = 'section, aside, [role="group"], main';

/** Focuses an element that is not focusable by itself (a heading, a message) without a tab stop. */
export function focusQuietly(el: HTMLElement | null | undefined): boolean {
  if (!el?.isConnected) return false;
  if (!el.hasAttribute('tabindex')) el.tabIndex = -1;
  el.focus();
  return document.activeElement === el;
}

function lost(doc: Document): boolean {
  const a = doc.activeElement;
  return a === null || a === doc.body || a === doc.documentElement;
}

function unusable(el: Element): boolean {
  return (
    !el.isConnected || (el as HTMLButtonElement).disabled === true || el.closest('[inert]') !== null
  );
}

/** The heading of the nearest still-present region around where focus was. */
function landing(doc: Document, ancestors: readonly Element[]): HTMLElement | null {
  const main = doc.getElementById('main');
  for (const a of ancestors) {
    if (!a.isConnected || !(a instanceof HTMLElement)) continue;
    const region = a.closest<HTMLElement>(REGIONS);
    if (!region || region === main) break;
    return region.querySelector<HTMLElement>(HEADINGS) ?? region;
  }
  // The screen itself was replaced: its new heading (or <main> until it is drawn).
  return main?.querySelector<HTMLElement>('h1') ?? main;
}

/** Call once; returns a function that stops it. */
export function startFocusRescue(doc: Document = document): () => void {
  let last: Element | null = null;
  let ancestors: Element[] = [];
  /** Focus sits on <main> only because the screen's heading is not drawn yet. */
  let waitingForHeading = false;

  const onFocusIn = (e: FocusEvent): void => {
    if (!(e.target instanceof Element)) return;
    last = e.target;
    ancestors = [];
    for (let p = e.target.parentElement; p && p !== doc.body; p = p.parentElement)
      ancestors.push(p);
    if (e.target !== doc.getElementById('main')) waitingForHeading = false;
  };

  const check = (): void => {
    const main = doc.getElementById('main');
    if (waitingForHeading) {
      const h1 = main?.querySelector<HTMLElement>('h1');
      if (doc.activeElement !== main) waitingForHeading = false;
      else if (h1) {
        waitingForHeading = false;
        focusQuietly(h1);
      }
      return;
    }
    // Only when focus is on nothing, and because its control went away (not a click on text).
    // (Chromium lets go of a button disabled under focus only at its next rendering step, with
    // a focusout: that event runs this check too.)
    if (!lost(doc) || !last || !unusable(last)) return;
    const to = landing(doc, ancestors);
    last = null;
    if (!to) return;
    focusQuietly(to);
    if (to === main && !to.querySelector('h1')) waitingForHeading = true;
  };

  // After React commits: a removal shows up as a mutation; a disabled button as an attribute.
  const observer = new MutationObserver(check);
  observer.observe(doc.body, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['disabled', 'inert', 'hidden'],
  });
  const onFocusOut = (e: FocusEvent): void => {
    if (e.relatedTarget === null) check();
  };
  doc.addEventListener('focusin', onFocusIn);
  doc.addEventListener('focusout', onFocusOut);
  return () => {
    observer.disconnect();
    doc.removeEventListener('focusin', onFocusIn);
    doc.removeEventListener('focusout', onFocusOut);
  };
}
