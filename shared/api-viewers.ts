/**
 * The viewers' part of the DoctorApi: a whole file as the scan's snapshot holds it, a log around
 * a matched line as the scan read it, and the runtime's raw CRI answers. Every request names a
 * scan by id and a file or log by the path its evidence quotes; the engine only looks the path
 * up in that scan's snapshot (never on a disk), so no path can reach anything the scan did not
 * read. Browser-safe: types and constants only.
 */

/** Caps every door applies (app/shared-server/validate.ts) and the UI pages within. */
export const VIEW_LIMITS = {
  /** Lines of one answer page of a file. */
  maxPageLines: 2000,
  /** Serialised answer size: a page stops early rather than cross it. */
  maxAnswerBytes: 2 * 1024 * 1024,
  /** Characters shown of one line; the rest is counted, not sent. */
  maxLineChars: 16 * 1024,
  /** Search: query length, and how many matching line numbers one answer lists. */
  maxQueryChars: 200,
  maxSearchHits: 5000,
  /** Node paths as evidence quotes them. */
  maxPathChars: 4096,
  /** Lines of log context on each side of a matched line (what the scan kept: KEEP_LIMITS). */
  maxLogContext: 200,
} as const;

export interface FileViewRequest {
  scanId: string;
  /** The node path exactly as the evidence quotes it. */
  path: string;
  /** First line of the page, 1-based (default 1). */
  from?: number;
  /** Lines wanted (default and max VIEW_LIMITS.maxPageLines). */
  count?: number;
  /** Case-insensitive literal text to find: the answer lists every line holding it. */
  query?: string;
}

export interface FileView {
  scanId: string;
  path: string;
  /** `text`: lines follow. `binary`: refused (message says why). */
  state: 'text' | 'binary';
  message?: string;
  /** Where the snapshot holds it: "containerd config", "CNI conf dir /etc/cni/net.d", … */
  holder: string;
  totalLines: number;
  /** Line number of `lines[0]`. */
  from: number;
  lines: string[];
  /** Lines sent shorter than they are: line number → characters not sent. */
  cut: Record<number, number>;
  /**
   * Set when the file was longer than what the scan kept (and judged): "the scan read the first
   * 4 MiB of this file", …. Lines past the end of `totalLines` were never read.
   */
  capped?: string;
  /** The bytes are not valid UTF-8 (shown with U+FFFD in their place). */
  encodingError?: string;
  /** Lines the findings mark in this file: line → ids of the findings that mark it. */
  marks: { line: number; findings: string[] }[];
  /** Present when the request had a query. */
  search?: { query: string; lines: number[]; total: number };
}

export interface LogViewRequest {
  scanId: string;
  /** The log's path as the evidence quotes it (a file, or `journald:<unit>`). */
  path: string;
  /** The matched line's number, as the evidence quotes it. */
  line: number;
  before?: number;
  after?: number;
}

export interface LogView {
  scanId: string;
  path: string;
  line: number;
  /** As the evidence: set when only the file's last bytes were read (line numbers count from there). */
  tailBytes?: number;
  /** "path:line", or "path, line N of the last 64 MiB". */
  location: string;
  from: number;
  lines: string[];
  /** Lines kept shorter than they are: line number → bytes not kept. */
  cut: Record<number, number>;
  /** Lines in the part of the log the scan read. */
  totalLines: number;
  /** The lines the scan kept around this match: the viewer cannot widen past them. */
  keptFrom: number;
  keptTo: number;
  /** Other matched lines inside this window (line → signature ids). */
  matches: { line: number; signatures: string[] }[];
}

export interface CriRawEntry {
  endpoint: string;
  api: string | null;
  /** The runtime's error when it answered with one (or could not be reached). */
  error: { code: number; message: string } | null;
  /** Pretty-printed JSON of Version, and of Status with verbose info (each info value parsed). */
  versionJson?: string;
  statusJson?: string;
  /** Why Version or Status is absent. */
  missing?: string;
  /** Set when the JSON was longer than an answer may be and was cut. */
  cutAt?: number;
}

export interface CriRaw {
  scanId: string;
  entries: CriRawEntry[];
  /** No runtime was asked: why (the host could not, the bundle did not record it, …). */
  unknown?: string;
}
