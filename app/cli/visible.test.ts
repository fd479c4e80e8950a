import { describe, expect, it } from 'vitest';
import { visible, visibleDeep, visibleLines } from './visible';
import { formatReport, plain } from './format-text';
import type { Report } from '../../shared/model/report';

describe('visible', () => {
  it('shows control characters instead of sending them to the terminal', () => {
    expect(visible('evil\x1b]0;pwned\x07\x1b[2J ok\ttab\u009b')).toBe(
      'evil\\x1b]0;pwned\\x07\\x1b[2J ok\\x09tab\\x9b',
    );
  });

  it('shows line breaks in a field, so a name never splits a layout', () => {
    expect(visible('a\nb\r\nc')).toBe('a\\x0ab\\x0d\\x0ac');
    expect(visibleLines('-a\x1b[2J\n+b')).toBe('-a\\x1b[2J\n+b');
  });

  it('shows Unicode controls that reorder or hide text (Trojan Source)', () => {
    expect(visible('abc\u202edcba\u2066x\u2028y\u200bz\ufeff')).toBe(
      'abc\\u{202e}dcba\\u{2066}x\\u{2028}y\\u{200b}z\\u{feff}',
    );
  });

  it('keeps ordinary text, including non-ASCII', () => {
    expect(visibleDeep({ a: ['grüße — ✓'], n: 3, b: true, z: null })).toEqual({
      a: ['grüße — ✓'],
      n: 3,
      b: true,
      z: null,
    });
  });

  it('copies every own key in order, a key named __proto__ included, escaping only values', () => {
    const node = JSON.parse(
      '{"z": "1\\u001b", "__proto__": {"evil": "\\u202e"}, "a": [{"k\\u0007": "v"}], "n": 1}',
    ) as Record<string, unknown>;
    const copy = visibleDeep(node);
    expect(Object.keys(copy)).toEqual(['z', '__proto__', 'a', 'n']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe(
      '{"z":"1\\\\x1b","__proto__":{"evil":"\\\\u{202e}"},"a":[{"k\\u0007":"v"}],"n":1}',
    );
  });

  it('keeps escape sequences from a config line out of the text report', () => {
    const report: Report = {
      schema: 'cni-doctor.report/v1',
      node: { os: 'linux', hostname: 'node\x1b[2J', source: 'bundle' },
      checks: [{ rule: 'cni.conf.invalid', status: 'fail' }],
      findings: [
        {
          id: 'cni.conf.invalid#x',
          rule: 'cni.conf.invalid',
          severity: 'error',
          title: '05-evil.conflist is not a valid CNI config',
          summary: 'bad',
          evidence: [
            {
              kind: 'file',
              path: '/etc/cni/net.d/05-evil.conflist',
              lines: [{ line: 1, text: '{"name":"evil\x1b]0;pwned\x07"' }],
            },
          ],
          repairs: [],
        },
      ],
    };
    const text = formatReport(report, plain);
    expect([...text].filter((c) => c.charCodeAt(0) < 0x20 && c !== '\n')).toEqual([]);
    expect(text).toContain('evil\\x1b]0;pwned\\x07');
  });
});
