/**
 * Every output format's escaping of node text, in one place. A file name, a network name, a
 * hostname read from a file, a log line: each is the node's to choose, and may hold line breaks,
 * terminal escapes, Markdown or HTML. Whatever leaves cni-doctor goes through one of these:
 *
 * - a terminal: `visible` (visible-text.ts): every control shown as `\xNN`/`\u{NNNN}`, never obeyed;
 * - HTML (the report page): `escapeHtml`: markup characters as entities, controls shown;
 * - Markdown ("Copy as Markdown"): `mdText` for prose, `mdCode` for a name or a command in a
 *   code span, `mdFence` for quoted lines. No node string can start a line, open a link or an
 *   image, close a code span or a fence, or carry HTML;
 * - JSON: `JSON.stringify` (its own escaping is complete).
 *
 * Browser-safe: no Node imports.
 */
import { visible, visibleLines } from './visible-text';

export { visible, visibleDeep, visibleLines } from './visible-text';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Controls an HTML page would otherwise render or obey: C0 but tab and line feed (a `<pre>`
 * shows those), DEL, C1, bidirectional overrides ("Trojan Source"), zero-width characters.
 */
const HTML_CONTROL =
  // eslint-disable-next-line no-control-regex
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

function shown(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u{${code.toString(16).padStart(4, '0')}}`;
}

/** Escapes text for element content and quoted attributes; control characters become visible. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c).replace(HTML_CONTROL, shown);
}

/**
 * Characters Markdown (CommonMark, GFM) gives a meaning anywhere in a line: code spans,
 * emphasis, links and images, raw HTML and autolinks, entities, strikethrough, table cells.
 * A backslash before any ASCII punctuation is a literal in CommonMark.
 */
const MD_INLINE = /[\\`*_[\]()<>!&~|]/g;
/** What makes a line something else when it starts it: a heading, a list, a quote, a rule. */
const MD_LINE_START = /^[#+=-]/;
const MD_ORDERED = /^(\d+)([.)])/;

/**
 * Node text as Markdown prose: one line (line breaks and other controls shown as `\x0a`, so no
 * node string can start a line of its own, such as a forged "**Repair**"), every character
 * with a Markdown meaning taken literally.
 */
export function mdText(s: string): string {
  return visible(s)
    .replace(MD_INLINE, (c) => `\\${c}`)
    .replace(MD_LINE_START, '\\$&')
    .replace(MD_ORDERED, '$1\\$2');
}

/**
 * Node text as an inline code span that nothing in it can close: a fence of one backquote more
 * than its longest run, spaces inside when it starts or ends with a backquote or a space (one is
 * stripped on each side), on one line.
 */
export function mdCode(s: string): string {
  const text = visible(s);
  if (text === '') return '` `';
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(text) ? ' ' : '';
  return `${f}${pad}${text}${pad}${f}`;
}

/** Lines quoted in a fenced block that no line of the node's text can close early. */
export function mdFence(text: string, lang = ''): string {
  const body = visibleLines(text);
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${body}\n${f}`;
}
