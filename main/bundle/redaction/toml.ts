/**
 * Finds secret values in a TOML document by key path: table headers (`[…registry.configs."x".auth]`
 * then `password = …`), dotted keys (`auth.password = …`), quoted keys (`"token" = …`),
 * inline tables (`auth = { password = … }`, nested), arrays (of strings, of inline tables),
 * arrays of tables and all four string kinds (multi-line ones keep their line count). Only
 * string contents change, so the document still parses; the caller checks that it does.
 */
import {
  readKey,
  readLiteralString,
  skipBasicString,
  skipBlanks,
  skipFiller,
  skipMultilineString,
  skipScalar,
} from '../../config/toml/lexer';
import { parseToml } from '../../config/toml';
import { redactBody, type Edit } from './edits';
import { isSecretKey } from './secret-keys';

const MAX_DEPTH = 64;

class Walker {
  readonly edits: Edit[] = [];
  constructor(private readonly text: string) {}

  /** Walks the value at `i` (key path `path`); returns the offset past it. */
  value(path: readonly string[], i: number, depth: number): number {
    const t = this.text;
    const c = t[i];
    if (depth > MAX_DEPTH) throw new Error('TOML value nested too deep');
    if (c === '"' || c === "'") return this.string(path, i);
    if (c === '[') {
      i = skipFiller(t, i + 1);
      while (t[i] !== ']') {
        i = skipFiller(t, this.value(path, i, depth + 1));
        if (t[i] === ',') i = skipFiller(t, i + 1);
      }
      return i + 1;
    }
    if (c === '{') {
      i = skipBlanks(t, i + 1);
      while (t[i] !== '}') {
        const key = readKey(t, i);
        const v = skipBlanks(t, skipBlanks(t, key.end) + 1);
        i = skipBlanks(t, this.value([...path, ...key.segments], v, depth + 1));
        if (t[i] === ',') i = skipBlanks(t, i + 1);
      }
      return i + 1;
    }
    return skipScalar(t, i);
  }

  private string(path: readonly string[], i: number): number {
    const t = this.text;
    const q = t[i] as string;
    const multi = t.startsWith(q.repeat(3), i);
    const end = multi
      ? skipMultilineString(t, i)
      : q === '"'
        ? skipBasicString(t, i)
        : readLiteralString(t, i).end;
    const key = path[path.length - 1] ?? '';
    if (isSecretKey(key)) {
      const open = multi ? 3 : 1;
      // Up to two quote characters before a multi-line closing delimiter are content.
      let close = end - open;
      if (multi) while (close > i + open && t[close - 1] === q) close--;
      const body = redactBody(t.slice(i + open, close));
      if (body !== undefined)
        this.edits.push({
          start: i + open,
          end: multi ? end - 3 : close,
          text: body,
          what: `TOML value of ${path.join('.')}`,
        });
    }
    return end;
  }

  document(): void {
    const t = this.text;
    let table: string[] = [];
    let i = skipFiller(t, 0);
    while (i < t.length) {
      if (t[i] === '[') {
        const isArray = t[i + 1] === '[';
        const key = readKey(t, skipBlanks(t, i + (isArray ? 2 : 1)));
        table = key.segments;
        i = skipBlanks(t, key.end) + (isArray ? 2 : 1);
      } else {
        const key = readKey(t, i);
        const v = skipBlanks(t, skipBlanks(t, key.end) + 1);
        i = this.value([...table, ...key.segments], v, 0);
      }
      i = skipFiller(t, i);
    }
  }
}

/** Edits hiding every secret value, or undefined when `text` is not TOML. */
export function tomlSecretEdits(text: string): Edit[] | undefined {
  if (!parseToml(text).ok) return undefined;
  const w = new Walker(text);
  w.document();
  return w.edits;
}
