/**
 * The header's height as the CSS variable --top-h, so the finding drawer starts below it: a
 * drawer from the window's top edge covered Rescan, Export report and Theme (newcomer review
 * 1.6). Measured, not a constant: the header wraps onto two lines in a narrow window.
 */
import { useLayoutEffect, type RefObject } from 'react';

export function useHeaderHeightVariable(header: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const el = header.current;
    if (!el) return;
    const style = document.documentElement.style;
    const set = (): void => style.setProperty('--top-h', `${el.getBoundingClientRect().height}px`);
    set();
    const watch = new ResizeObserver(set);
    watch.observe(el);
    return () => watch.disconnect();
  }, [header]);
}
