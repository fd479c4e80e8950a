/**
 * The latest progress event of each kind, fed by DoctorApi.onProgress. Progress is a stream of
 * transient engine events, so it gets a tiny external store rather than a query or view state.
 */
import { useSyncExternalStore } from 'react';
import type { DoctorApi, ProgressEvent } from '../../../shared/api';

type Latest = {
  scan?: Extract<ProgressEvent, { kind: 'scan' }>;
  repair?: Extract<ProgressEvent, { kind: 'repair' }>;
};

let latest: Latest = {};
const subs = new Set<() => void>();

export function connectProgress(api: DoctorApi): () => void {
  return api.onProgress((e) => {
    // Stale events are not progress: the watch queries hear them (queries/use-watch.ts); the
    // credential dialog hears its own (components/CredentialDialog.tsx).
    if (e.kind !== 'scan' && e.kind !== 'repair') return;
    latest = e.kind === 'scan' ? { ...latest, scan: e } : { ...latest, repair: e };
    for (const fn of subs) fn();
  });
}

export function useProgress(): Latest {
  return useSyncExternalStore(
    (fn) => {
      subs.add(fn);
      return () => subs.delete(fn);
    },
    () => latest,
  );
}
