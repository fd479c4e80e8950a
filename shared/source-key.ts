/**
 * One text form of a scan source — `live`, `bundle:<id>`, `demo:<id>`, `target:<the target's own
 * form>` (`target:container:podman/kind-control-plane`) — used by the server (which
 * scan answers which source) and the renderer (query keys, the address bar). Browser-safe.
 */
import { ID_PATTERNS, type ScanRequest } from './api';

// Ids come from the server's own patterns; anything else in an address is ignored, not trusted.
const SOURCE_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function sourceKey(source: ScanRequest): string {
  if (source.source === 'live') return 'live';
  if (source.source === 'bundle') return `bundle:${source.bundleId}`;
  if (source.source === 'target') return `target:${source.targetId}`;
  return `demo:${source.demoId}`;
}

/** The source a key names, or null when the text is not one sourceKey writes. */
export function parseSourceKey(text: string): ScanRequest | null {
  if (text === 'live') return { source: 'live' };
  const m = /^(bundle|demo|target):(.+)$/.exec(text);
  if (!m) return null;
  if (m[1] === 'target')
    return ID_PATTERNS.targetId.test(m[2] ?? '')
      ? { source: 'target', targetId: m[2] as string }
      : null;
  if (!SOURCE_ID.test(m[2] ?? '')) return null;
  return m[1] === 'bundle'
    ? { source: 'bundle', bundleId: m[2] as string }
    : { source: 'demo', demoId: m[2] as string };
}
