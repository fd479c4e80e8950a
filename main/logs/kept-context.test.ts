import { describe, expect, it } from 'vitest';
import { signaturesFor } from './catalog';
import { keepMatchContext, keepWindows } from './kept-context';
import { scanLog } from './scanner';

const HIT =
  'cni config load failed: no network config found in /etc/cni/net.d: cni plugin not initialized';
const lines = (n: number, f: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => f(i + 1));

async function* once(b: Uint8Array): AsyncIterable<Uint8Array> {
  yield b;
}

describe('keepWindows', () => {
  it("numbers lines as the scanner does: CRLF dropped, a last line without \\n counts, a tail's partial first line is line 1", async () => {
    const text = 'partial tail line\r\nline 2\r\n' + HIT + '\r\nline 4\nlast, no newline';
    const data = Buffer.from(text);
    const kept = await keepMatchContext('/var/log/containerd.log', data, signaturesFor('linux'));
    const scanned = await scanLog(once(data), '/var/log/containerd.log', signaturesFor('linux'));
    expect(scanned.matches.map((m) => m.line)).toEqual([3]);
    expect(kept.totalLines).toBe(scanned.lines);
    expect(kept.windows).toEqual([
      {
        from: 1,
        lines: ['partial tail line', 'line 2', HIT, 'line 4', 'last, no newline'],
      },
    ]);
  });

  it('keeps UTF-16LE logs (Windows PowerShell redirection) decoded, with the same numbers', async () => {
    const text = 'one\r\n' + HIT + '\r\nthree\r\n';
    const data = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const kept = await keepMatchContext('C:\\k\\kubelet.log', data, signaturesFor('linux'));
    expect(kept.windows[0]?.lines).toEqual(['one', HIT, 'three']);
    expect(kept.totalLines).toBe(3);
  });

  it('keeps only the radius around each match, merging windows that touch', () => {
    const data = Buffer.from(lines(1000, (i) => `line ${i}`).join('\n') + '\n');
    const kept = keepWindows('/l', data, [10, 15, 500, 1000], {
      radius: 5,
      lineChars: 100,
      logChars: 1e6,
    });
    expect(kept.totalLines).toBe(1000);
    expect(kept.windows.map((w) => [w.from, w.from + w.lines.length - 1])).toEqual([
      [5, 20],
      [495, 505],
      [995, 1000],
    ]);
    expect(kept.windows[1]?.lines[5]).toBe('line 500');
  });

  it('caps long lines (and says how much was dropped) and the whole log, newest windows first', () => {
    const long = 'x'.repeat(5000);
    const data = Buffer.from(['a', long, 'b', 'c', 'd', 'e'].join('\n'));
    const kept = keepWindows('/l', data, [2], { radius: 1, lineChars: 100, logChars: 1e6 });
    expect(kept.windows[0]?.lines[1]).toHaveLength(100);
    expect(kept.cut).toEqual({ 2: 4900 });
    const tight = keepWindows('/l', data, [1, 6], { radius: 0, lineChars: 100, logChars: 1 });
    expect(tight.windows).toEqual([{ from: 6, lines: ['e'] }]);
  });

  it('an empty log keeps nothing; line numbers outside the log are ignored', () => {
    expect(keepWindows('/l', Buffer.alloc(0), [1])).toEqual({
      path: '/l',
      totalLines: 0,
      windows: [],
      cut: {},
    });
    expect(keepWindows('/l', Buffer.from('a\n'), [0, 2, -1]).windows).toEqual([]);
  });
});
