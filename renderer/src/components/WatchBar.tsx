/**
 * Watch, under the header: "The node changed after this scan — Rescan" when the engine says the
 * scan is stale, the Watch toggle on a node it can watch, and the reason where it cannot (a node
 * reached through a target). A bundle or demo never changes: nothing is shown for it.
 */
import { useEffect, useRef } from 'react';
import type { ScanResponse } from '../../../shared/api';
import { useRescan } from '../queries/use-doctor';
import { useRepairRunning, useStaleEvents, useWatchStatus } from '../queries/use-compare';
import { useWatchPref } from '../state/watch-store';
import '../styles/watch.css';

export function WatchBar({ scan, fetching }: { scan: ScanResponse; fetching: boolean }) {
  useStaleEvents();
  const status = useWatchStatus(scan.scanId);
  const rescan = useRescan();
  const on = useWatchPref((w) => w.on);
  const setOn = useWatchPref((w) => w.set);
  const repairing = useRepairRunning();
  const stale = status.data?.stale === true;

  // Watch on: a stale scan is scanned again once (not while a repair scans by itself).
  const rescanned = useRef<string | null>(null);
  useEffect(() => {
    if (!on || !stale || fetching || repairing || rescanned.current === scan.scanId) return;
    rescanned.current = scan.scanId;
    void rescan();
  }, [on, stale, fetching, repairing, scan.scanId, rescan]);

  const s = status.data;
  if (!s || scan.request.source === 'bundle' || scan.request.source === 'demo') return null;
  if (!s.available)
    return (
      <p className="watch-bar watch-off muted small" data-testid="watch-unavailable">
        {s.reason}
      </p>
    );
  return (
    <div className="watch-bar">
      {stale && (
        <div className="stale-banner" role="status" data-testid="stale-banner">
          <span>
            <strong>The node changed after this scan</strong>
            {s.changed && s.changed.length > 0 && (
              <span className="stale-paths" title={s.changed.join('\n')}>
                {' '}
                ({s.changed.join(', ')})
              </span>
            )}
            {on && ' — rescanning…'}
          </span>
          <button
            type="button"
            className="primary"
            onClick={() => void rescan()}
            disabled={fetching}
          >
            Rescan
          </button>
        </div>
      )}
      <button
        type="button"
        className="watch-toggle"
        aria-pressed={on}
        onClick={() => setOn(!on)}
        title={`Rescan by itself when the node's CNI folders or runtime configs change${
          s.watching
            ? ` (${s.watching.paths} watched, by ${s.watching.mode === 'events' ? 'file-system events and polling' : 'polling'})`
            : ''
        }`}
      >
        Watch for changes
      </button>
    </div>
  );
}
