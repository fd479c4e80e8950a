import { describe, expect, it } from 'vitest';
import { visible, visibleDeep } from './visible';
import { formatReport, plain } from './format-text';
import type { Report } from '../../shared/model/report';

describe('visible', () => {
  it('shows control characters instead of sending them to the terminal', () => {
    expect(visible('evil\x1b]0;pwned\x07\x1b[2J ok\ttab\u009b')).toBe(
      'evil\\x1b]0;pwned\\x07\\x1b[2J ok\ttab\\x9b',
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
