import { describe, expect, it } from 'vitest';
import {
  hitStatus,
  joinNodePath,
  onPage,
  pageStartFor,
  segments,
  stepHit,
  widen,
} from './viewer-model';

describe('viewer model', () => {
  it('opens a page with the line and some context above it', () => {
    expect(pageStartFor(1)).toBe(1);
    expect(pageStartFor(30)).toBe(1);
    expect(pageStartFor(1000)).toBe(960);
    expect(onPage(960, { from: 960, lines: ['a'] })).toBe(true);
    expect(onPage(961, { from: 960, lines: ['a'] })).toBe(false);
  });

  it('steps through hits both ways, wrapping', () => {
    expect(stepHit(0, -1, 1)).toBe(-1);
    expect(stepHit(3, -1, 1)).toBe(0);
    expect(stepHit(3, -1, -1)).toBe(2);
    expect(stepHit(3, 2, 1)).toBe(0);
    expect(stepHit(3, 0, -1)).toBe(2);
  });

  it('says where the user is among the hits, and when the engine listed fewer', () => {
    expect(hitStatus({ query: 'x', lines: [1, 2], total: 2 }, 1)).toBe('2 of 2 lines');
    expect(hitStatus({ query: 'x', lines: [1], total: 9000 }, 0)).toBe(
      '1 of 9000 lines (the first 1 can be stepped through)',
    );
    expect(hitStatus({ query: '\u001b[2J', lines: [], total: 0 }, -1)).toBe(
      'No line holds "\\x1b[2J"',
    );
  });

  it('splits a line where the query occurs, and shows control characters instead of obeying them', () => {
    expect(segments('Type: antrea, TYPE', 'type')).toEqual([
      { text: 'Type', hit: true },
      { text: ': antrea, ', hit: false },
      { text: 'TYPE', hit: true },
    ]);
    expect(segments('a\u001b]0;pwned\u0007b\u202e', '')).toEqual([
      { text: 'a\\x1b]0;pwned\\x07b\\u{202e}', hit: false },
    ]);
    expect(segments('', 'x')).toEqual([{ text: '', hit: false }]);
  });

  it('widens log context by a step, never past what was kept', () => {
    expect(widen(10, 500)).toBe(30);
    expect(widen(10, 5)).toBe(15);
    expect(widen(190, 500)).toBe(200);
    expect(widen(10, 0)).toBe(10);
  });

  it('joins conf dir entries with the node’s separator', () => {
    expect(joinNodePath('/etc/cni/net.d', '10-a.conf')).toBe('/etc/cni/net.d/10-a.conf');
    expect(joinNodePath('C:\\etc\\cni\\net.d', 'x.json')).toBe('C:\\etc\\cni\\net.d\\x.json');
    expect(joinNodePath('/', 'x')).toBe('/x');
  });
});
