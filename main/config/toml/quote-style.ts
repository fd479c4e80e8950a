import type { TomlAnalysis } from './analyze';
import type { QuoteStyle } from './format';
import type { ScannedKey } from './ast-scan';

// containerd 2.x writes 'single' quotes everywhere while 1.x and CRI-O write "double";
// edits copy whatever the file already uses so a repaired file still looks generated.

function quoteAt(text: string, i: number): QuoteStyle | undefined {
  if (text[i] === "'") return 'single';
  if (text[i] === '"') return 'double';
  return undefined;
}

/** Quote style of a written value: the string itself, or an array's first string element. */
export function quoteStyleOfValue(key: ScannedKey, text: string): QuoteStyle | undefined {
  const first = key.elements ? key.elements[0]?.start : key.valueStart;
  return first === undefined ? undefined : quoteAt(text, first);
}

function majority(votes: Array<QuoteStyle | undefined>): QuoteStyle | undefined {
  const single = votes.filter((v) => v === 'single').length;
  const double = votes.filter((v) => v === 'double').length;
  if (single === 0 && double === 0) return undefined;
  return single > double ? 'single' : 'double';
}

/** Style most string values in the file use; double when there are none. */
export function fileValueQuoteStyle(a: TomlAnalysis): QuoteStyle {
  return majority(a.keys.map((k) => quoteStyleOfValue(k, a.text))) ?? 'double';
}

/** Style most quoted header segments use (`[plugins.'x']` vs `[plugins."x"]`); double by default. */
export function fileHeaderQuoteStyle(a: TomlAnalysis): QuoteStyle {
  const votes = a.headers.map((h) => {
    const header = a.text.slice(h.start, h.end);
    const single = header.indexOf("'");
    const double = header.indexOf('"');
    if (single === -1 && double === -1) return undefined;
    if (single === -1) return 'double';
    if (double === -1) return 'single';
    return single < double ? 'single' : 'double';
  });
  return majority(votes) ?? 'double';
}
