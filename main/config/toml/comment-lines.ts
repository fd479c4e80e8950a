/**
 * The document with its whole-line comments emptied, for the parser, and the way back to the
 * original's offsets.
 *
 * Why: toml-eslint-parser reads a comment one code point at a time, as it reads everything else,
 * and the configs a node carries are mostly comments: podman's containers.conf is 577 comment
 * lines of 707 (24 KiB), containerd's config.toml from Docker's packages and CRI-O's crio.conf
 * are nearly all comment. parseToml of containers.conf took 6-8 ms of a remote scan's CPU (one
 * warmed-up parse, V8 flags of a one-shot command); with its comment lines emptied, 2.5-3.3 ms.
 *
 * The verdict cannot change:
 * - Only a line whose first non-blank character is `#` is emptied, and only when every character
 *   of it is one TOML 1.0 allows in a comment (tab, or not a control character). A line that
 *   breaks that rule is left for the parser to refuse, where it would have.
 * - A document holding a multi-line string (`"""` or `'''` anywhere) is left whole: inside one,
 *   a line starting with `#` is text, not a comment.
 * - Line breaks all stay, so every line keeps its number and every other line its columns.
 *
 * An emptied line keeps one `#`: with nothing left on it, its start and its line break would be
 * the same offset, and the way back could not tell a line's start from the previous line's end.
 */

export interface ElidedComments {
  /** What the parser reads. */
  text: string;
  /** The offset in the original document of an offset in `text`. */
  toOriginal(offset: number): number;
}

/** Below this many characters removed, the mapping costs more than the parse saves. */
const WORTH_ELIDING = 512;

/**
 * A whole-line comment: blanks, `#`, then characters TOML 1.0 allows in a comment (tab, or no
 * control character; the C1 controls it allows are refused too, which only leaves such a line to
 * the parser). A CRLF line break's CR stays where it is.
 */
const COMMENT_LINE = /^[ \t]*#(?:\t|\P{Cc})*(?=\r?$)/gmu;

/** Undefined when nothing worth emptying was found: then the document is parsed as it is. */
export function elideCommentLines(text: string): ElidedComments | undefined {
  if (text.includes('"""') || text.includes("'''")) return undefined;
  // Per emptied line: its start in the new text and in the original, and its length there.
  const newStarts: number[] = [];
  const origStarts: number[] = [];
  const origLengths: number[] = [];
  let removed = 0;
  const elided = text.replace(COMMENT_LINE, (line: string, start: number) => {
    newStarts.push(start - removed);
    origStarts.push(start);
    origLengths.push(line.length);
    removed += line.length - 1;
    return '#';
  });
  if (removed < WORTH_ELIDING) return undefined;
  return {
    text: elided,
    toOriginal: (offset) => {
      if (offset >= elided.length) return text.length + (offset - elided.length);
      // The last emptied line starting at or before the offset (binary search).
      let lo = 0;
      let hi = newStarts.length - 1;
      let found = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if ((newStarts[mid] as number) <= offset) {
          found = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      if (found < 0) return offset;
      const newStart = newStarts[found] as number;
      const origStart = origStarts[found] as number;
      const origLength = origLengths[found] as number;
      // The `#` left on an emptied line stands for the line's start; past it, everything moved
      // back by what this line and the ones before it lost.
      if (offset === newStart) return origStart;
      return offset + (origStart - newStart) + origLength - 1;
    },
  };
}

/**
 * The text toml-eslint-parser is given for a document, and the way back to the document's
 * offsets: a BOM becomes a blank of the same length (editors write one; containerd 1.x's go-toml
 * accepts it), and whole-line comments are emptied when that is worth it.
 */
export function parserView(text: string): ElidedComments {
  const source = text.startsWith('\uFEFF') ? ` ${text.slice(1)}` : text;
  return elideCommentLines(source) ?? { text: source, toOriginal: (offset) => offset };
}
