/**
 * Catches what a screen throws while it renders, above all a screen's code that failed to load
 * (its chunk is fetched on the first visit: a dropped connection or a server restarted on a newer
 * build rejects the import). Without it React removes the whole window, header and screen list
 * with it, and the user is left with a blank page. With it the screen says what failed, the rest
 * of the app stays usable, and one click loads the page again.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** The screen this wraps: a new screen starts with a clean slate. */
  screen: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
  screen: string;
}

export class ScreenBoundary extends Component<Props, State> {
  override state: State = { error: null, screen: this.props.screen };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    // Leaving the screen forgets its failure; coming back tries it again.
    return props.screen !== state.screen ? { screen: props.screen, error: null } : null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // The console is where a support engineer looks next (DevTools, or the Playwright trace).
    console.error('cni-doctor: a screen failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="notice error" role="alert" data-testid="screen-failed">
        <strong>This screen could not be shown</strong>
        <p>{whatFailed(error)}</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload the app
        </button>
      </div>
    );
  }
}

/** A failed chunk import says so in words; anything else shows its own message. */
function whatFailed(error: Error): string {
  if (
    /dynamically imported module|Importing a module script failed|error loading/i.test(
      error.message,
    )
  )
    return `Its code did not load (${error.message}). The page and the server may be from different builds, or the connection dropped: reload the app.`;
  return error.message || error.name;
}
