import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './diff';

/** Lines with their terminators kept. */
function splitLines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

/** Applies a unified diff produced by unifiedDiff (test oracle). */
function applyUnified(before: string, patch: string): string {
  const src = splitLines(before);
  const lines = patch.split('\n');
  const out: string[] = [];
  let at = 0;
  let i = 2;
  while (i < lines.length && lines[i] !== '') {
    const m = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(lines[i] as string);
    if (!m) throw new Error(`bad hunk header ${lines[i]}`);
    const start = Number(m[2]) === 0 ? Number(m[1]) : Number(m[1]) - 1;
    while (at < start) out.push(src[at++] as string);
    i++;
    while (i < lines.length && lines[i] !== '' && !(lines[i] as string).startsWith('@@')) {
      const l = lines[i] as string;
      const noNl = lines[i + 1] === '\\ No newline at end of file';
      const text = `${l.slice(1)}${noNl ? '' : '\n'}`;
      if (l[0] === ' ') {
        out.push(text);
        at++;
      } else if (l[0] === '-') at++;
      else out.push(text);
      i += noNl ? 2 : 1;
    }
  }
  while (at < src.length) out.push(src[at++] as string);
  return out.join('');
}

describe('unifiedDiff', () => {
  it('is empty for equal texts and marks new files', () => {
    expect(unifiedDiff('/x', 'a\n', 'a\n')).toBe('');
    expect(unifiedDiff('/etc/x', null, 'a\nb\n')).toBe(
      '--- /dev/null\n+++ b/etc/x\n@@ -0,0 +1,2 @@\n+a\n+b\n',
    );
  });

  it('shows a lost final newline', () => {
    expect(unifiedDiff('/x', 'a\nb\n', 'a\nb')).toBe(
      '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n',
    );
  });

  it('keeps 3 lines of context and splits distant changes into hunks', () => {
    const a = Array.from({ length: 30 }, (_, i) => `l${i + 1}\n`).join('');
    const b = a.replace('l5\n', 'L5\n').replace('l25\n', 'L25\n');
    const d = unifiedDiff('/f', a, b);
    expect(d.match(/^@@/gm)).toHaveLength(2);
    expect(d).toContain('@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-l5\n+L5\n l6\n l7\n l8\n');
  });

  it('round-trips random edits (the diff applied to the old text by an independent applier gives the new one)', () => {
    let seed = 7;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let t = 0; t < 300; t++) {
      const a = Array.from({ length: rnd(40) }, () => `x${rnd(6)}\n`);
      const b = [...a];
      for (let e = rnd(6); e > 0; e--) {
        const op = rnd(3);
        const at = rnd(b.length + 1);
        if (op === 0) b.splice(at, 0, `y${rnd(6)}\n`);
        else if (op === 1 && b.length) b.splice(at % b.length, 1);
        else if (b.length) b[at % b.length] = `z${rnd(6)}\n`;
      }
      const before = a.join('');
      const after = rnd(5) === 0 ? b.join('').replace(/\n$/, '') : b.join('');
      const d = unifiedDiff('/f', before, after);
      expect(before === after ? '' : applyUnified(before, d)).toBe(before === after ? '' : after);
    }
  });
});
