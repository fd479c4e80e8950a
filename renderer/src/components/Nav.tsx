/** The screen list. Buttons in document order, so Tab walks them before the content. */
import { SCREENS, useView } from '../state/view-store';

export function Nav({ counts }: { counts?: { findings: number; unknown: number } }) {
  const screen = useView((s) => s.screen);
  const go = useView((s) => s.go);
  return (
    <nav aria-label="Screens" className="nav">
      <ul>
        {SCREENS.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              className="nav-item"
              aria-current={screen === s.id ? 'page' : undefined}
              onClick={() => go(s.id)}
              data-screen={s.id}
            >
              {s.label}
              {s.id === 'findings' && counts && counts.findings > 0 && (
                <span className="count">{counts.findings}</span>
              )}
              {s.id === 'checks' && counts && counts.unknown > 0 && (
                // "24?" was read out as "24 question mark" (newcomer review, journey 4).
                <span className="count unknown" title="checks that could not determine">
                  <span aria-hidden="true">{counts.unknown}?</span>
                  <span className="sr-only">, {counts.unknown} could not determine</span>
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
