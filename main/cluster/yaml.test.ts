import { describe, expect, it } from 'vitest';
import { toYaml } from './yaml';

describe('toYaml', () => {
  it('writes maps, lists of maps and scalars, quoting every string', () => {
    expect(
      toYaml([
        {
          a: 'x: y\n- z',
          n: 1,
          b: true,
          e: [],
          o: {},
          list: [{ k: 'v', m: { q: 1 } }, 'plain'],
          'odd key': null,
        },
      ]),
    ).toBe(
      [
        'a: "x: y\\n- z"',
        'n: 1',
        'b: true',
        'e: []',
        'o: {}',
        'list:',
        '- k: "v"',
        '  m:',
        '    q: 1',
        '- "plain"',
        '"odd key": null',
        '',
      ].join('\n'),
    );
  });
});
