/**
 * The left edge of the detail panel: drag it (or focus it and press ←/→) to change the panel's
 * width. The chosen width is a preference; CSS still clamps it so the list keeps 320 px.
 */
import { useEffect, type KeyboardEvent, type PointerEvent } from 'react';
import { usePrefs } from '../state/prefs-store';

const STEP = 32;

export function useDetailWidthVariable(): void {
  const width = usePrefs((s) => s.detailWidth);
  useEffect(() => {
    const style = document.documentElement.style;
    if (width === null) style.removeProperty('--detail-pref');
    else style.setProperty('--detail-pref', `${width}px`);
  }, [width]);
}

export function DetailResizer({ panel }: { panel: () => HTMLElement | null }) {
  const setWidth = usePrefs((s) => s.setDetailWidth);
  const current = (): number => panel()?.getBoundingClientRect().width ?? 0;

  const onPointerDown = (e: PointerEvent<HTMLDivElement>): void => {
    e.preventDefault();
    const target = e.currentTarget;
    target.setPointerCapture(e.pointerId);
    const move = (ev: globalThis.PointerEvent): void =>
      setWidth(Math.round(window.innerWidth - ev.clientX));
    const up = (): void => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key === 'ArrowLeft') setWidth(Math.round(current() + STEP));
    else if (e.key === 'ArrowRight') setWidth(Math.round(current() - STEP));
    else return;
    e.preventDefault();
  };

  return (
    <div
      className="detail-resize"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the detail panel (← wider, → narrower)"
      aria-valuenow={Math.round(current())}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      onDoubleClick={() => setWidth(null)}
    />
  );
}
