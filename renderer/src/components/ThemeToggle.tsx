/** System / light / dark. The choice is applied as data-theme on <html> (see App). */
import { usePrefs, type ThemeChoice } from '../state/prefs-store';

const NEXT: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };

export function ThemeToggle() {
  const theme = usePrefs((s) => s.theme);
  const setTheme = usePrefs((s) => s.setTheme);
  return (
    <button
      type="button"
      className="theme-toggle"
      onClick={() => setTheme(NEXT[theme])}
      aria-label={`Theme: ${theme}. Switch to ${NEXT[theme]}`}
    >
      Theme: {theme}
    </button>
  );
}
