import TOML from '@iarna/toml';
import { describe, expect, it } from 'vitest';
import { removeArrayElement, removeTomlKey, setTomlValue } from './edit';
import { parseToml } from './parse';
import { parseLiteral, sample, TOML_SAMPLES } from './testing.testutil';
import { valueAt } from './value-tree';

// Deterministic mutation fuzzing of real runtime configs: toml-eslint-parser must agree with a
// second, independent parser (@iarna/toml; the mutations use nothing where TOML 0.5 and 1.0
// differ) on what is valid, every location it reports must hold the right value, and no edit
// may throw or trip its own self-check.

function rng(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s + 0x6d2b79f5) | 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) % n;
  };
}

const PIECES = [
  '[',
  ']',
  '"',
  "'",
  '=',
  '#',
  '\n',
  '\r\n',
  ',',
  '{',
  '}',
  '.',
  ' ',
  'a',
  '1',
  '"""',
  "'''",
  '\\',
  'x = 1\n',
  '[t]\n',
  '[[t]]\n',
  'a.b = ',
  'a = {b = 1}\n',
];
const EXTRA =
  'a = [\n "x", "y", # c\n "z",\n [1], {q = "x"}, "x"\n]\nb.c.d = 1\n[t]\ne = {f = 1}\n[[arr]]\ng = 1\n[t.u]\nh = """\n[x]\n"""\n';
const BASES = [...TOML_SAMPLES.map(sample), EXTRA];

function mutate(rnd: (n: number) => number): string {
  let t =
    rnd(3) === 0
      ? Array.from({ length: 5 + rnd(40) }, () => PIECES[rnd(PIECES.length)]).join('')
      : (BASES[rnd(BASES.length)] ?? '');
  for (let k = 1 + rnd(3); k > 0; k--) {
    const pos = rnd(t.length + 1);
    t = rnd(2)
      ? t.slice(0, pos) + t.slice(pos + 1 + rnd(5))
      : t.slice(0, pos) + (PIECES[rnd(PIECES.length)] ?? '') + t.slice(pos);
  }
  return t;
}

function iarnaAccepts(text: string): boolean {
  try {
    TOML.parse(text.replace(/\r\n/g, '\n'));
    return true;
  } catch {
    return false;
  }
}

describe('fuzz', () => {
  it('parseToml agrees with @iarna/toml and its locations hold the parsed values', () => {
    const rnd = rng(1);
    for (let i = 0; i < 3000; i++) {
      const text = mutate(rnd);
      const r = parseToml(text);
      expect(r.ok, JSON.stringify(text)).toBe(iarnaAccepts(text));
      if (!r.ok) continue;
      for (const k of r.keys) {
        const literal = text.slice(k.valueSpan.start, k.valueSpan.end).replace(/\r\n/g, '\n');
        expect(parseLiteral(literal)).toEqual(valueAt(r.value, k.path));
      }
    }
  });

  it('edits never throw and never fail their self-check', () => {
    const rnd = rng(2);
    for (let i = 0; i < 1500; i++) {
      const base = BASES[rnd(BASES.length)] ?? '';
      const text = rnd(2) ? base.replace(/\n/g, '\r\n') : base;
      const r = parseToml(text);
      if (!r.ok) throw new Error('base sample must parse');
      const k = r.keys[rnd(r.keys.length)];
      if (!k) continue;
      const op = rnd(6);
      const path =
        op === 4
          ? [...k.path.slice(0, -1), 'added']
          : op === 5
            ? [...k.path.slice(0, -1), 'sub', 'added']
            : k.path;
      const current = valueAt(r.value, path);
      const element = Array.isArray(current) ? current[rnd(current.length)] : undefined;
      const res =
        op === 0
          ? removeTomlKey(text, path)
          : op === 1
            ? removeArrayElement(text, path, typeof element === 'string' ? element : 'absent')
            : setTomlValue(text, path, [true, 3, 'it\'s "q"', ['a', 'b']][rnd(4)] ?? 'x');
      if (!res.ok) expect(res.reason).not.toMatch(/self-check|edit failed/);
      else expect(res.text.includes('\r\n') ? !/(^|[^\r])\n/.test(res.text) : true).toBe(true);
    }
  });
});
