/** Text replacements found by the structure-aware redactors, applied in one pass. */
import { REDACTED } from './secret-keys';

export interface Edit {
  /** Offsets into the original text (end exclusive). */
  start: number;
  end: number;
  text: string;
  /** What was redacted, without the line (added from `start`). */
  what: string;
}

/**
 * Applies edits in order of position. One that overlaps an earlier one is dropped (the key-path
 * edit of a value and a line pattern inside the same value hide the same thing).
 */
export function applyEdits(
  text: string,
  edits: readonly Edit[],
): { text: string; applied: Edit[] } {
  const sorted = [...edits].sort((a, b) => a.start - b.start || b.end - a.end);
  const applied: Edit[] = [];
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) continue;
    out += text.slice(at, e.start) + e.text;
    at = e.end;
    applied.push(e);
  }
  return { text: out + text.slice(at), applied };
}

/**
 * The body of a value with every non-blank line replaced by REDACTED: leading whitespace and
 * line breaks stay, so a multi-line string keeps its line count and its indentation (a YAML
 * block scalar stays a block scalar, line numbers after it stay right). Escape sequences are
 * replaced too, so no half escape is left. Undefined when the body holds nothing to hide.
 */
export function redactBody(body: string): string | undefined {
  let hidden = false;
  const out = body
    .split('\n')
    .map((line) => {
      const m = /^([ \t]*)(.*?)(\r?)$/.exec(line) as RegExpExecArray;
      if ((m[2] ?? '') === '') return line;
      if (m[2] !== REDACTED) hidden = true;
      return `${m[1]}${REDACTED}${m[3]}`;
    })
    .join('\n');
  return hidden ? out : undefined;
}
