/**
 * The address of what the user is looking at: `#/<screen>[/<finding id>][?src=<source>]`.
 * Every screen and every finding has one, so a reload (or Back/Forward) returns to the same
 * place, and an address can be pasted into a ticket. The serve token never appears here: it
 * lives in sessionStorage (api/token.ts).
 */
import type { ScanRequest } from '../../../shared/api';
import { SCREENS, type Screen } from './view-store';

export interface Route {
  screen: Screen;
  findingId: string | null;
  /** null: the door's default source. */
  source: ScanRequest | null;
}

const SCREEN_IDS = new Set<string>(SCREENS.map((s) => s.id));
// Ids come from the server's own patterns; anything else in an address is ignored, not trusted.
const SOURCE_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function formatSource(source: ScanRequest): string {
  if (source.source === 'live') return 'live';
  if (source.source === 'bundle') return `bundle:${source.bundleId}`;
  return `demo:${source.demoId}`;
}

export function parseSource(text: string): ScanRequest | null {
  if (text === 'live') return { source: 'live' };
  const m = /^(bundle|demo):(.+)$/.exec(text);
  if (!m || !SOURCE_ID.test(m[2] ?? '')) return null;
  return m[1] === 'bundle'
    ? { source: 'bundle', bundleId: m[2] as string }
    : { source: 'demo', demoId: m[2] as string };
}

export function formatRoute(r: Route): string {
  let hash = `#/${r.screen}`;
  if (r.findingId !== null) hash += `/${encodeURIComponent(r.findingId)}`;
  if (r.source) hash += `?src=${encodeURIComponent(formatSource(r.source))}`;
  return hash;
}

/** Reads an address; anything unrecognised falls back to the Overview of the default source. */
export function parseRoute(hash: string): Route {
  const fallback: Route = { screen: 'overview', findingId: null, source: null };
  const m = /^#\/([a-z]+)(?:\/([^?]*))?(?:\?(.*))?$/.exec(hash);
  if (!m || !SCREEN_IDS.has(m[1] ?? '')) return fallback;
  let findingId: string | null = null;
  let source: ScanRequest | null = null;
  try {
    if (m[2]) findingId = decodeURIComponent(m[2]);
    const src = new URLSearchParams(m[3] ?? '').get('src');
    if (src) source = parseSource(src);
  } catch {
    return fallback; // a malformed %-escape
  }
  return { screen: m[1] as Screen, findingId, source };
}
