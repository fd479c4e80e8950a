/**
 * "Start from the user's error" (issue 22, point 6): a pasted FailedCreatePodSandBox event or log
 * line, matched against the log signatures and tied to the finding of a scan that explains it.
 */

export interface ExplainRequest {
  scanId: string;
  /** The pasted text: an event, a log line, several lines (at most EXPLAIN_MAX_CHARS). */
  text: string;
}

export const EXPLAIN_MAX_CHARS = 65_536;

export interface ExplainMatch {
  /** The pasted line that matched (trimmed, at most 2,000 characters). */
  line: string;
  signature: { id: string; title: string; explanation: string; fix: string };
  /** The rule the line is evidence for (`attachesTo`), or its `log.<topic>` check. */
  rule: string;
  /**
   * `explained`: `findingId` is the finding of this scan that explains the line.
   * `generic`: the line only says the sandbox's network setup failed; `findingId`, when set, is
   * this scan's most likely cause. `unexplained`: no finding of this scan explains it.
   */
  verdict: 'explained' | 'generic' | 'unexplained';
  findingId?: string;
  findingTitle?: string;
}

export interface ExplainResult {
  matches: ExplainMatch[];
  /** How many non-empty lines were read from the text. */
  lines: number;
}
