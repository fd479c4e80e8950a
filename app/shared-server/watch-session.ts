/**
 * Watch: after each scan of a node this machine reads directly (the live node, `serve --root
 * DIR`), the conf dirs and config files that scan read are watched (main/watch/). When one
 * changes, every held scan of that node is marked stale and a `stale` event goes out on the
 * progress stream; the UI shows "The node changed after this scan" and, with Watch on, rescans.
 * Bundles and demos never go stale; remote targets cannot be watched from here (the reason says
 * why). One node is watched at a time: the newest live scan's. A path written after the scan
 * began, before its watch started, makes that scan stale at once.
 */
import type { WatchStatus } from '../../shared/api-compare';
import { LinuxHost } from '../../main/host/linux-host';
import {
  NodeWatcher,
  type NodeWatcherOptions,
  type WatchedPath,
} from '../../main/watch/node-watcher';
import { pathsToWatch } from '../../main/watch/watch-paths';
import type { ProgressBus } from './progress';
import type { ScanEntry } from './scan-sessions';

const MAX_CHANGED_SHOWN = 20;
const MAX_REMEMBERED = 16;

export const WATCH_REASONS = {
  recording: 'a bundle is a recording: it never changes, so it never goes stale',
  remote:
    'Watch is not available for a node reached through a target: it is read by one program run per scan over its transport, and nothing runs there between scans to notice changes. Rescan to see them.',
  windows: 'Watch is not available for Windows nodes in this build: rescan to see changes',
} as const;

interface Stale {
  changed: string[];
  at: string;
}

export class WatchSession {
  private watcher: NodeWatcher | undefined;
  /** The scans of the watched node, and which went stale. */
  private readonly live = new Set<string>();
  private readonly stale = new Map<string, Stale>();
  /** Starts run one after another; a newer scan's start wins. */
  private starting: Promise<void> = Promise.resolve();
  private generation = 0;

  constructor(
    private readonly progress: ProgressBus,
    private readonly watcherOptions: Partial<NodeWatcherOptions> = {},
  ) {}

  /** Called with every finished scan. */
  onScanned(entry: ScanEntry): void {
    if (entry.response.request.source !== 'live' || !(entry.host instanceof LinuxHost)) return;
    const host = entry.host;
    const scanId = entry.response.scanId;
    const gen = ++this.generation;
    this.starting = this.starting.then(async () => {
      if (gen !== this.generation) return;
      this.watcher?.close();
      this.watcher = undefined;
      const paths: WatchedPath[] = [];
      for (const p of pathsToWatch(entry.result.snapshot)) {
        const localPath = await host.localPath(p.path);
        if (localPath !== undefined) paths.push({ nodePath: p.path, localPath, kind: p.kind });
      }
      this.live.add(scanId);
      // Only the newest scans are held (scan-sessions.ts), so only they need remembering.
      for (const old of [...this.live].slice(0, -MAX_REMEMBERED)) {
        this.live.delete(old);
        this.stale.delete(old);
      }
      this.watcher = await NodeWatcher.start(paths, {
        ...this.watcherOptions,
        onChange: (changed) => this.changed(changed),
        // What changed while the scan was reading (before this watch existed) counts too.
        ...(entry.startedAtMs !== undefined && { changedSince: entry.startedAtMs }),
      });
      if (gen !== this.generation) this.watcher.close();
    });
    void this.starting.catch(() => undefined);
  }

  /** Resolves once the watch of the newest live scan is in place (tests). */
  ready(): Promise<void> {
    return this.starting;
  }

  private changed(paths: string[]): void {
    const at = new Date().toISOString();
    const scanIds = [...this.live];
    for (const id of scanIds) {
      const prev = this.stale.get(id);
      const all = [...new Set([...(prev?.changed ?? []), ...paths])].slice(0, MAX_CHANGED_SHOWN);
      this.stale.set(id, { changed: all, at: prev?.at ?? at });
    }
    this.progress.emit({ kind: 'stale', scanIds, changed: paths.slice(0, MAX_CHANGED_SHOWN), at });
  }

  status(entry: ScanEntry | undefined, scanId: string): WatchStatus {
    const r = entry?.response.request;
    if (!entry || !r)
      return { scanId, available: false, reason: 'this scan is no longer held', stale: false };
    if (r.source === 'bundle' || r.source === 'demo')
      return { scanId, available: false, reason: WATCH_REASONS.recording, stale: false };
    if (r.source === 'target')
      return { scanId, available: false, reason: WATCH_REASONS.remote, stale: false };
    if (!(entry.host instanceof LinuxHost))
      return { scanId, available: false, reason: WATCH_REASONS.windows, stale: false };
    const s = this.stale.get(scanId);
    const w = this.watcher;
    return {
      scanId,
      available: true,
      stale: s !== undefined,
      ...(s && { changed: s.changed, changedAt: s.at }),
      ...(w && { watching: { paths: w.pathCount, mode: w.mode } }),
    };
  }

  dispose(): void {
    this.generation++;
    this.watcher?.close();
    this.watcher = undefined;
  }
}
