/**
 * The viewers' answers, from what one held scan kept: a file's text from its snapshot, a log's
 * lines around a match from the context the scan kept (main/host/context-keeping-host.ts), the
 * runtime's CRI answers from its snapshot. Nothing here opens a file: a path is a key into the
 * scan's own tables, so an unknown or hostile path is simply "not in this scan".
 */
import {
  VIEW_LIMITS,
  type CriRaw,
  type CriRawEntry,
  type FileView,
  type FileViewRequest,
  type LogView,
  type LogViewRequest,
} from '../../shared/api-viewers';
import { logLineLocation } from '../../shared/log-location';
import { snapshotTexts, type HeldText } from '../../main/engine/snapshot-files';
import type { KeptLog } from '../../main/logs/kept-context';
import type { ScanResult } from '../../main/engine/scan';
import { ApiError } from './errors';

/** What a held scan gives the viewers. */
export interface ViewableScan {
  scanId: string;
  result: ScanResult;
  /** Log path → the lines kept around its matches. */
  keptLogs?: ReadonlyMap<string, KeptLog>;
}

/** Room kept for everything but the lines in one answer (marks, search hits, message). */
const RESERVE_BYTES = 256 * 1024;

const texts = new WeakMap<ScanResult, Map<string, HeldText>>();
const splits = new WeakMap<HeldText, string[]>();

function held(scan: ViewableScan, path: string): HeldText {
  let t = texts.get(scan.result);
  if (!t) texts.set(scan.result, (t = snapshotTexts(scan.result.snapshot)));
  const h = t.get(path);
  if (!h)
    throw new ApiError(
      'not-found',
      "this file's text is not in the scan's snapshot (the scan quotes only files it kept)",
    );
  return h;
}

function linesOf(h: HeldText): string[] {
  let l = splits.get(h);
  // The split the evidence's line numbers come from (main/rules/evidence.ts excerpt).
  if (!l) splits.set(h, (l = h.text.split(/\r?\n/)));
  return l;
}

/** A NUL byte, or mostly undecodable bytes: not text a person reads line by line. */
export function binaryReason(text: string, encodingError: string | undefined): string | undefined {
  const nul = text.indexOf('\u0000');
  if (nul !== -1) {
    const line = text.slice(0, nul).split('\n').length;
    return `this is a binary file (it holds NUL bytes, the first on line ${line}); it is not shown as text`;
  }
  if (encodingError === undefined) return undefined;
  const head = text.slice(0, 64 * 1024);
  let bad = 0;
  for (const c of head) if (c === '\ufffd') bad++;
  if (head.length > 0 && bad / head.length > 0.1)
    return `this is not text (${encodingError}, and more than a tenth of it does not decode); it is not shown`;
  return undefined;
}

function marksFor(scan: ViewableScan, path: string): FileView['marks'] {
  const by = new Map<number, Set<string>>();
  for (const f of scan.result.report.findings)
    for (const e of f.evidence) {
      if (e.kind !== 'file' || e.path !== path) continue;
      for (const l of e.lines) {
        if (!l.highlight) continue;
        let s = by.get(l.line);
        if (!s) by.set(l.line, (s = new Set()));
        s.add(f.id);
      }
    }
  return [...by.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([line, ids]) => ({ line, findings: [...ids] }));
}

function search(lines: string[], query: string): NonNullable<FileView['search']> {
  const q = query.toLowerCase();
  const hits: number[] = [];
  let total = 0;
  lines.forEach((l, i) => {
    if (!l.toLowerCase().includes(q)) return;
    total++;
    if (hits.length < VIEW_LIMITS.maxSearchHits) hits.push(i + 1);
  });
  return { query, lines: hits, total };
}

export function viewFile(scan: ViewableScan, req: Omit<FileViewRequest, 'scanId'>): FileView {
  const h = held(scan, req.path);
  const base = {
    scanId: scan.scanId,
    path: h.path,
    holder: h.holder,
    ...(h.capped !== undefined && { capped: h.capped }),
    ...(h.encodingError !== undefined && { encodingError: h.encodingError }),
  };
  const binary = binaryReason(h.text, h.encodingError);
  if (binary)
    return {
      ...base,
      state: 'binary',
      message: binary,
      totalLines: 0,
      from: 1,
      lines: [],
      cut: {},
      marks: [],
    };
  const all = linesOf(h);
  const total = all.length;
  const from = Math.min(Math.max(1, req.from ?? 1), Math.max(1, total));
  const want = Math.min(req.count ?? VIEW_LIMITS.maxPageLines, VIEW_LIMITS.maxPageLines);
  const lines: string[] = [];
  const cut: Record<number, number> = {};
  let bytes = 0;
  for (let n = from; n < from + want && n <= total; n++) {
    let line = all[n - 1] as string;
    if (line.length > VIEW_LIMITS.maxLineChars) {
      cut[n] = line.length - VIEW_LIMITS.maxLineChars;
      line = line.slice(0, VIEW_LIMITS.maxLineChars);
    }
    const size = Buffer.byteLength(JSON.stringify(line)) + 1;
    // At least one line per page, so paging always moves on.
    if (lines.length > 0 && bytes + size > VIEW_LIMITS.maxAnswerBytes - RESERVE_BYTES) break;
    bytes += size;
    lines.push(line);
  }
  return {
    ...base,
    state: 'text',
    totalLines: total,
    from,
    lines,
    cut,
    marks: marksFor(scan, h.path),
    ...(req.query !== undefined && req.query !== '' && { search: search(all, req.query) }),
  };
}

export function viewLog(scan: ViewableScan, req: Omit<LogViewRequest, 'scanId'>): LogView {
  const kept = scan.keptLogs?.get(req.path);
  if (!kept)
    throw new ApiError('not-found', 'this scan kept no lines of this log (no line of it matched)');
  const w = kept.windows.find((x) => req.line >= x.from && req.line < x.from + x.lines.length);
  if (!w)
    throw new ApiError(
      'not-found',
      `line ${req.line} is not near a matched line of this log; the scan kept only the lines around its matches`,
    );
  const keptTo = w.from + w.lines.length - 1;
  const before = Math.min(req.before ?? 10, VIEW_LIMITS.maxLogContext);
  const after = Math.min(req.after ?? 10, VIEW_LIMITS.maxLogContext);
  // Widen around the matched line one line each side at a time while the answer stays in its cap
  // (a kept line is at most 4,000 characters, but control characters cost 6 bytes each as JSON).
  const lo = Math.max(w.from, req.line - before);
  const hi = Math.min(keptTo, req.line + after);
  const size = (n: number): number =>
    Buffer.byteLength(JSON.stringify(w.lines[n - w.from] ?? '')) + 1;
  let budget = VIEW_LIMITS.maxAnswerBytes - RESERVE_BYTES - size(req.line);
  let from = req.line;
  let to = req.line;
  for (let grew = true; grew;) {
    grew = false;
    if (from > lo && size(from - 1) <= budget) {
      budget -= size(--from);
      grew = true;
    }
    if (to < hi && size(to + 1) <= budget) {
      budget -= size(++to);
      grew = true;
    }
  }
  const all = scan.result.snapshot.logs.matches.filter((m) => m.path === req.path);
  const tailBytes = all.find((m) => m.tailBytes !== undefined)?.tailBytes;
  const byLine = new Map<number, string[]>();
  for (const m of all) {
    if (m.line < from || m.line > to) continue;
    byLine.set(m.line, [...(byLine.get(m.line) ?? []), m.signatureId]);
  }
  const cut: Record<number, number> = {};
  for (let l = from; l <= to; l++) if (kept.cut[l] !== undefined) cut[l] = kept.cut[l] as number;
  return {
    scanId: scan.scanId,
    path: kept.path,
    line: req.line,
    ...(tailBytes !== undefined && { tailBytes }),
    location: logLineLocation({
      path: kept.path,
      line: req.line,
      ...(tailBytes !== undefined && { tailBytes }),
    }),
    from,
    lines: w.lines.slice(from - w.from, to - w.from + 1),
    cut,
    totalLines: kept.totalLines,
    keptFrom: w.from,
    keptTo,
    matches: [...byLine.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([line, signatures]) => ({ line, signatures })),
  };
}

/** Each value of the verbose info map is JSON text (containerd's config, …): shown parsed, as crictl does. */
function parsedInfo(info: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(info)) {
    try {
      out[k] = JSON.parse(v) as unknown;
    } catch {
      out[k] = v;
    }
  }
  return out;
}

export function criRaw(scan: ViewableScan): CriRaw {
  const s = scan.result.snapshot;
  if (s.cri === undefined)
    return {
      scanId: scan.scanId,
      entries: [],
      unknown:
        s.criUnknown ??
        (s.node.source === 'bundle'
          ? 'the bundle recorded no CRI answers'
          : 'the runtimes were not asked over CRI in this scan'),
    };
  if (s.cri.length === 0)
    return {
      scanId: scan.scanId,
      entries: [],
      unknown: 'no CRI endpoint was present on the node to ask',
    };
  let budget = VIEW_LIMITS.maxAnswerBytes - RESERVE_BYTES;
  // Sizes as sent: the JSON text is itself a JSON string in the answer (quotes, newlines escaped).
  const sent = (t: string): number => Buffer.byteLength(JSON.stringify(t));
  const cap = (json: string, e: CriRawEntry): string => {
    const size = sent(json);
    if (size <= budget) {
      budget -= size;
      return json;
    }
    let lo = 0;
    let hi = json.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (sent(json.slice(0, mid)) <= budget) lo = mid;
      else hi = mid - 1;
    }
    budget = 0;
    e.cutAt = lo;
    return json.slice(0, lo);
  };
  const entries = s.cri.map((c) => {
    const e: CriRawEntry = { endpoint: c.endpoint, api: c.api, error: c.error };
    if (c.version) e.versionJson = cap(JSON.stringify(c.version, null, 2), e);
    if (c.status)
      e.statusJson = cap(
        JSON.stringify(
          { status: { conditions: c.status.conditions }, info: parsedInfo(c.status.info) },
          null,
          2,
        ),
        e,
      );
    if (!c.version || !c.status)
      e.missing = c.error
        ? `the runtime answered with an error (${c.error.code}): ${c.error.message}`
        : !c.version
          ? 'Version was not answered'
          : 'Status was not answered';
    return e;
  });
  return { scanId: scan.scanId, entries };
}
