/**
 * Parser for PowerShell `Format-List` text (the default display of Get-HnsNetwork & co.):
 * `Key<pad> : value` lines, values continued on lines indented past the key column, records
 * separated by blank lines. Only for turning the real samples into fixtures; the tool itself never
 * parses list output (docs/knowledge/windows-hns.md#getting-json-out-reliably: "Never parse it").
 */
import { parseDisplayValue, type DisplayValue } from './display-value';
import { joinWrapped, physical, wrapWidth, type PhysicalLine } from './unwrap-lines';

export interface FlRecord {
  values: { [k: string]: DisplayValue };
  lossy: string[];
}

export interface FlParse {
  records: FlRecord[];
  /** The text ended in the middle of a record (the search index cut the sample). */
  truncated: boolean;
}

const PROPERTY = /^(\s*)([A-Za-z][A-Za-z0-9_]*)\s*:(?: (.*))?$/;
const CUT = /^\s*\[\.\.\..*truncated/;

interface RawProp {
  key: string;
  lines: PhysicalLine[];
}

export function parseFormatList(text: string): FlParse {
  const groups: RawProp[][] = [];
  let current: RawProp[] | undefined;
  let keyIndent = -1;
  let truncated = false;
  // The property the line just before a cut belongs to: its value may stop mid-token.
  let lastLineProp: RawProp | undefined;
  let cutProp: RawProp | undefined;

  for (const line of text.split(/\r?\n/)) {
    if (CUT.test(line)) {
      truncated = true;
      cutProp = lastLineProp;
      break;
    }
    if (line.trim() === '') {
      current = undefined;
      lastLineProp = undefined;
      continue;
    }
    const m = PROPERTY.exec(line);
    const indent = line.length - line.trimStart().length;
    const last = current?.[current.length - 1];
    if (last !== undefined && indent > keyIndent && (m === null || indent !== keyIndent)) {
      last.lines.push(physical(line, true));
      lastLineProp = last;
      continue;
    }
    if (m === null) {
      current = undefined; // prompts, headings and code fences between records
      lastLineProp = undefined;
      continue;
    }
    if (current === undefined) {
      current = [];
      groups.push(current);
      keyIndent = indent;
    }
    const prop: RawProp = {
      key: m[2] ?? '',
      lines: [{ text: (m[3] ?? '').trim(), width: line.length }],
    };
    current.push(prop);
    lastLineProp = prop;
  }

  const width = wrapWidth(groups.flatMap((g) => g.map((p) => p.lines)));
  const records = groups.map((g) => toRecord(g, width, cutProp));
  return { records, truncated };
}

function toRecord(props: RawProp[], width: number, cutProp: RawProp | undefined): FlRecord {
  const values: { [k: string]: DisplayValue } = {};
  const lossy: string[] = [];
  for (const p of props) {
    const text = joinWrapped(p.lines, width);
    const parsed = parseDisplayValue(text, p.key);
    // A plain value on the line the cut went through may be a prefix of the real one (a GUID
    // cut in half); structured values keep what was complete (display-value.ts).
    const isScalar = parsed.value === null || typeof parsed.value !== 'object';
    if (p === cutProp && (isScalar || text === '@')) {
      lossy.push(`${p.key} (cut off, left out)`);
      continue;
    }
    values[p.key] = parsed.value;
    lossy.push(...parsed.lossy);
  }
  return { values, lossy };
}
