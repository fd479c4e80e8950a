/**
 * Objects out of `hnsdiag list <kind> -d` output. -d "dumps the json of the object" for each object
 * (docs/knowledge/windows-hns.md#hnsdiag), but what sits between the objects (headings, blank lines, an enclosing array)
 * differs by Windows build and is not documented, so this does not rely on it: it takes every
 * balanced top-level `{…}` (braces inside JSON strings do not count) and parses each on its own.
 * A damaged object costs only itself.
 */
import type { Obj } from './untrusted-json';
import { isObj } from './untrusted-json';

export interface HnsdiagParse {
  objects: Obj[];
  /** One line per object that could not be parsed, and for text cut off mid-object. */
  problems: string[];
}

export function objectsFromHnsdiag(text: string): HnsdiagParse {
  const objects: Obj[] = [];
  const problems: string[] = [];
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf('{', i);
    if (start < 0) break;
    const end = matchingBrace(text, start);
    if (end < 0) {
      problems.push(`object at offset ${start} is cut off`);
      break;
    }
    try {
      const v: unknown = JSON.parse(text.slice(start, end + 1));
      if (isObj(v)) objects.push(v);
    } catch (e) {
      problems.push(`object at offset ${start}: ${e instanceof Error ? e.message : String(e)}`);
    }
    i = end + 1;
  }
  return { objects, problems };
}

/** Index of the `}` closing the `{` at `start`, or -1. */
function matchingBrace(s: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */) depth++;
    else if (c === 0x7d /* } */) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}
