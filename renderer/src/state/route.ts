/**
 * The address of what the user is looking at: `#/<screen>[/<finding id>][?src=<source>]`, plus
 * the open viewer's parameters (viewer-route.ts).
 * Every screen and every finding has one, so a reload (or Back/Forward) returns to the same
 * place, and an address can be pasted into a ticket. The serve token never appears here: it
 * lives in sessionStorage (api/token.ts).
 */
import type { ScanRequest } from '../../../shared/api';
import { parseSourceKey, sourceKey } from '../../../shared/source-key';
import { SCREENS, type Screen } from './view-store';
import { parseViewer, viewerParams, type Viewer } from './viewer-route';

export interface Route {
  screen: Screen;
  findingId: string | null;
  /** null: the door's default source. */
  source: ScanRequest | null;
  /** A file, log or CRI viewer open over the screen; absent or null: none. */
  viewer?: Viewer | null;
}

const SCREEN_IDS = new Set<string>(SCREENS.map((s) => s.id));
export function formatRoute(r: Route): string {
  let hash = `#/${r.screen}`;
  if (r.findingId !== null) hash += `/${encodeURIComponent(r.findingId)}`;
  const q: string[] = [];
  if (r.source) q.push(`src=${encodeURIComponent(sourceKey(r.source))}`);
  if (r.viewer)
    for (const [k, v] of viewerParams(r.viewer)) q.push(`${k}=${encodeURIComponent(v)}`);
  return q.length > 0 ? `${hash}?${q.join('&')}` : hash;
}

/** Reads an address; anything unrecognised falls back to the Overview of the default source. */
export function parseRoute(hash: string): Route {
  const fallback: Route = { screen: 'overview', findingId: null, source: null };
  const m = /^#\/([a-z]+)(?:\/([^?]*))?(?:\?(.*))?$/.exec(hash);
  if (!m || !SCREEN_IDS.has(m[1] ?? '')) return fallback;
  let findingId: string | null = null;
  let source: ScanRequest | null = null;
  let viewer: Viewer | null;
  try {
    if (m[2]) findingId = decodeURIComponent(m[2]);
    const q = new URLSearchParams(m[3] ?? '');
    const src = q.get('src');
    if (src) source = parseSourceKey(src);
    viewer = parseViewer(q);
  } catch {
    return fallback; // a malformed %-escape
  }
  return viewer
    ? { screen: m[1] as Screen, findingId, source, viewer }
    : { screen: m[1] as Screen, findingId, source };
}
