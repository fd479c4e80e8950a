/**
 * Which frames may talk to the engine: the app's own page (the built index.html loaded from a
 * file:// URL), as the top frame, and nothing else — not another file on disk, not a page the
 * window was somehow navigated to, not an iframe (Electron security checklist #17).
 */
import { pathToFileURL } from 'node:url';

export interface FrameLike {
  url: string;
  /** null for the top frame. */
  parent: unknown;
}

export function appPageUrl(indexHtmlPath: string): string {
  return pathToFileURL(indexHtmlPath).href;
}

export function isTrustedSender(frame: FrameLike | null | undefined, pageUrl: string): boolean {
  if (!frame || frame.parent !== null) return false;
  let got: URL;
  let want: URL;
  try {
    got = new URL(frame.url);
    want = new URL(pageUrl);
  } catch {
    return false;
  }
  // The fragment and query are the page's own business; the file must be exactly ours.
  return got.protocol === 'file:' && got.host === want.host && got.pathname === want.pathname;
}
