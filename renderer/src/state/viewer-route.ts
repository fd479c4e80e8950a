/**
 * Which viewer is open, as part of the address (`…?src=…&view=file&path=…&line=…`), so a reload
 * or a pasted link opens the same file, log line or CRI answer again. Only the node path and
 * line travel: the viewer asks the engine for them in the scan the address names, and the engine
 * serves only what that scan kept.
 */
export type Viewer =
  /** `line`: where to open (the first line the finding marks). */
  | { kind: 'file'; path: string; line?: number }
  | { kind: 'log'; path: string; line: number }
  /** `endpoint`: the runtime the user came from (its answer is shown first). */
  | { kind: 'cri'; endpoint?: string };

const MAX_PATH = 4096;

function lineParam(v: string | null): number | undefined {
  if (v === null || !/^[1-9][0-9]{0,9}$/.test(v)) return undefined;
  return Number(v);
}

export function viewerParams(v: Viewer): [string, string][] {
  const out: [string, string][] = [['view', v.kind]];
  if (v.kind === 'file' || v.kind === 'log') out.push(['path', v.path]);
  if ((v.kind === 'file' || v.kind === 'log') && v.line !== undefined)
    out.push(['line', String(v.line)]);
  if (v.kind === 'cri' && v.endpoint !== undefined) out.push(['endpoint', v.endpoint]);
  return out;
}

/** Reads the viewer from an address's query; anything malformed is no viewer. */
export function parseViewer(q: URLSearchParams): Viewer | null {
  const kind = q.get('view');
  const path = q.get('path');
  const line = lineParam(q.get('line'));
  if (kind === 'cri') {
    const endpoint = q.get('endpoint');
    return endpoint !== null && endpoint.length <= MAX_PATH ? { kind, endpoint } : { kind };
  }
  if (path === null || path === '' || path.length > MAX_PATH) return null;
  if (kind === 'file') return line !== undefined ? { kind, path, line } : { kind, path };
  if (kind === 'log' && line !== undefined) return { kind, path, line };
  return null;
}

export function sameViewer(a: Viewer | null, b: Viewer | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
