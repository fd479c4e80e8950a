// Contracts for the log signature catalog and the streaming scanner.
// Kept free of Node APIs so rules/ and the renderer can import the shapes.
import type { Reference } from '../../shared/model/finding';

export interface LogSignature {
  /** Stable id, e.g. 'linux.cni.plugin-not-found'. Users may quote it, so it never changes meaning. */
  id: string;
  platform: 'linux' | 'windows' | 'any';
  /**
   * A regular expression valid both as a JS RegExp (no flags needed) and as POSIX ERE for
   * `grep -E`: literals, `.`, `.*`, `[...]`, `(a|b)`, `?`, `+`, `{n}`, escaped metacharacters.
   * No `\d \s \w`, lookarounds, lazy quantifiers, and no GNU `\'`/`` \` `` anchors.
   */
  pattern: string;
  /** A literal substring every matching line contains; the scanner's fast byte prefilter. */
  literal: string;
  /** One line. */
  title: string;
  /** Cause and effect in the user's terms. */
  explanation: string;
  /** What to do. */
  fix: string;
  /** Where the fact comes from, e.g. 'docs/knowledge/log-signatures-linux.md#linux-12'. */
  kb: readonly Reference[];
  /** Rule id (docs/rules.md) this line is evidence for. Exactly one of attachesTo / topic. */
  attachesTo?: string;
  /** When no rule covers the line: the id of the finding it becomes, 'log.<topic>' (e.g. 'log.flannel.cni0-address'). */
  topic?: string;
  /**
   * The line only says that a sandbox's network setup (or a CNI reload) failed; the cause is
   * what the rest of the line or another finding names. Its topic finding keeps only the lines
   * no specific finding explains (engine/post/claim-log-lines.ts).
   */
  generic?: true;
  /** Severity of the topic finding; default 'warning' (rules.md "Logs"). */
  severity?: 'error' | 'warning' | 'info';
  /** A real log line, as quoted upstream, that this signature must match (checked by tests). */
  example?: string;
}

export interface LogMatch {
  signatureId: string;
  path: string;
  /** 1-based line number in the file. */
  line: number;
  /** The line (without its line break), decoded, capped to 2,000 characters. */
  text: string;
}

export interface LogScanResult {
  /** Sorted by line, then by catalog order. A line matching several signatures appears once per signature. */
  matches: LogMatch[];
  /** Raw bytes read from the source (before any UTF-16 transcoding). */
  bytesScanned: number;
  lines: number;
  /** Lines longer than maxLineBytes: only their first maxLineBytes bytes were matched. */
  truncatedLines: number;
  /** Older matches discarded by the keep-last-N-per-signature policy. */
  droppedMatches: number;
  /** Set when the source could not be (fully) read, e.g. 'EACCES'; matches found so far are kept. */
  error?: string;
}

export interface LogScanOptions {
  /** Default 64 KiB. Longer lines are cut to this many bytes for matching and counted. */
  maxLineBytes?: number;
  /** Default 50. Keeps the LAST N (most recent) matches per signature. */
  maxMatchesPerSignature?: number;
}
