/**
 * Starts the UI on whichever door opened it: the Electron preload's `window.doctor`, or HTTP to
 * `cni-doctor serve` with the token from the URL fragment.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import type { DoctorApi } from '../../shared/api';
import { ApiProvider } from './api/api-context';
import { createHttpApi } from './api/http-client';
import { takeToken } from './api/token';
import { connectProgress } from './state/progress-feed';
import { startAddressSync } from './state/address-sync';
import { startFocusRescue } from './lib/focus-rescue';
import { useView } from './state/view-store';
import { prefetchFirstScreen } from './queries/use-doctor';
import { createQueryClient } from './queries/query-client';
import { App } from './App';
import './styles/app.css';

declare global {
  interface Window {
    /** Set by the Electron preload (contextBridge); absent in a browser. */
    doctor?: DoctorApi;
  }
}

function pickApi(): DoctorApi | undefined {
  if (window.doctor) return window.doctor;
  const token = takeToken(window.location, window.sessionStorage, (url) =>
    window.history.replaceState(null, '', url),
  );
  return token ? createHttpApi({ token }) : undefined;
}

function NoToken() {
  return (
    <main className="no-token">
      <h1>cni-doctor</h1>
      <p>
        This page needs the address that <code>cni-doctor serve</code> printed: it ends in{' '}
        <code>#token=…</code>, a secret made for this session. Open that exact address.
      </p>
    </main>
  );
}

const root = createRoot(document.getElementById('root') as HTMLElement);
const api = pickApi();
if (!api) {
  root.render(<NoToken />);
} else {
  startAddressSync();
  startFocusRescue();
  connectProgress(api);
  const queryClient = createQueryClient();
  void prefetchFirstScreen(queryClient, api, useView.getState().source);
  root.render(
    <StrictMode>
      <ApiProvider api={api}>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </ApiProvider>
    </StrictMode>,
  );
}
