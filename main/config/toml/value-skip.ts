import { MAX_VALUE_DEPTH } from './limits';
import {
  readKey,
  readLiteralString,
  skipBasicString,
  skipBlanks,
  skipFiller,
  skipMultilineString,
  skipScalar,
} from './lexer';
import { TomlScanError } from './scan-error';

// Finds where a value ends without building it. Arrays and inline tables are walked
// with an explicit stack (no recursion), so deeply nested input cannot overflow the
// call stack; the depth cap keeps the stack itself small.

interface Frame {
  kind: 'array' | 'table';
  /** Offset of the opening bracket, for 'unterminated' messages. */
  open: number;
}

/** Skips one string of any of the four TOML kinds starting at `i`. */
function skipString(text: string, i: number): number {
  const q = text[i];
  if (text.startsWith(q === '"' ? '"""' : "'''", i)) return skipMultilineString(text, i);
  return q === '"' ? skipBasicString(text, i) : readLiteralString(text, i).end;
}

/** Reads `key =` inside an inline table; returns where the value starts. */
function enterInlineTableKey(text: string, i: number): number {
  const key = readKey(text, skipFiller(text, i));
  const eq = skipBlanks(text, key.end);
  if (text[eq] !== '=') throw new TomlScanError("expected '=' after key in inline table", eq);
  return skipBlanks(text, eq + 1);
}

function unterminated(frame: Frame): TomlScanError {
  return new TomlScanError(
    frame.kind === 'array' ? 'unterminated array' : 'unterminated inline table',
    frame.open,
  );
}

/** Returns the offset just past the value starting at `start`. */
export function skipValue(text: string, start: number): number {
  const stack: Frame[] = [];
  let i = start;
  let expectValue = true;
  for (;;) {
    if (expectValue) {
      const ch = text[i];
      const open = stack[stack.length - 1];
      if (ch === undefined && open !== undefined) throw unterminated(open);
      if (ch === '[' || ch === '{') {
        if (stack.length >= MAX_VALUE_DEPTH) {
          throw new TomlScanError(`value nested deeper than ${MAX_VALUE_DEPTH} levels`, i, true);
        }
        stack.push({ kind: ch === '[' ? 'array' : 'table', open: i });
        const inner = skipFiller(text, i + 1);
        const close = ch === '[' ? ']' : '}';
        if (text[inner] === close) {
          stack.pop();
          i = inner + 1;
          expectValue = false;
        } else {
          i = ch === '[' ? inner : enterInlineTableKey(text, inner);
        }
        continue;
      }
      i = ch === '"' || ch === "'" ? skipString(text, i) : skipScalar(text, i);
      expectValue = false;
      continue;
    }
    const frame = stack[stack.length - 1];
    if (frame === undefined) return i;
    const close = frame.kind === 'array' ? ']' : '}';
    i = skipFiller(text, i);
    if (i >= text.length) throw unterminated(frame);
    if (text[i] === close) {
      stack.pop();
      i++;
      continue;
    }
    if (text[i] !== ',') throw new TomlScanError(`expected ',' or '${close}'`, i);
    i = skipFiller(text, i + 1);
    if (text[i] === close) {
      // Trailing comma: legal in arrays; @iarna/toml rejects it for inline tables.
      stack.pop();
      i++;
      continue;
    }
    i = frame.kind === 'array' ? i : enterInlineTableKey(text, i);
    expectValue = true;
  }
}
