import { describe, expect, it } from 'vitest';
import { analyzeToml } from './analyze';
import { removeArrayElement, removeTomlKey, setTomlValue } from './edit';
import { verifyEdit } from './self-check';
import type { TomlEditResult } from './types';

// Edge cases of the editors on small synthetic documents.

function edited(r: TomlEditResult): string {
  if (!r.ok) throw new Error(`edit refused: ${r.reason}`);
  return r.text;
}

describe('setTomlValue', () => {
  it('keeps the comment and spacing around a replaced value', () => {
    expect(edited(setTomlValue('[t]\nk   =   "a"   # why\n', ['t', 'k'], 'b'))).toBe(
      '[t]\nk   =   "b"   # why\n',
    );
  });

  it('replaces the value of a dotted key in place', () => {
    expect(edited(setTomlValue('[t]\ncni.bin_dir = "/a"\n', ['t', 'cni', 'bin_dir'], '/b'))).toBe(
      '[t]\ncni.bin_dir = "/b"\n',
    );
  });

  it('keeps floats floats', () => {
    expect(edited(setTomlValue('x = 1.5\n', ['x'], 2))).toBe('x = 2.0\n');
    expect(edited(setTomlValue('x = 1\n', ['x'], 2))).toBe('x = 2\n');
    expect(edited(setTomlValue('x = 1\n', ['x'], 0.25))).toBe('x = 0.25\n');
  });

  it('escapes strings that need it', () => {
    const out = edited(setTomlValue('x = "a"\n', ['x'], 'q"\\\n\u0001'));
    expect(out).toBe('x = "q\\"\\\\\\n\\u0001"\n');
  });

  it('quotes key segments that are not bare keys', () => {
    expect(edited(setTomlValue('', ['plugins', 'io.containerd.grpc.v1.cri', 'a b'], 1))).toBe(
      '[plugins."io.containerd.grpc.v1.cri"]\n"a b" = 1\n',
    );
  });

  it('adds a line break first when the file does not end with one', () => {
    expect(edited(setTomlValue('[t]\na = 1', ['t', 'b'], 2))).toBe('[t]\na = 1\nb = 2\n');
    expect(edited(setTomlValue('[t]', ['t', 'b'], 2))).toBe('[t]\nb = 2\n');
    expect(edited(setTomlValue('a = 1', ['u', 'b'], 2))).toBe('a = 1\n\n[u]\nb = 2\n');
  });

  it('inserts root keys before the first table, above a comment attached to it', () => {
    const text = '# file header\n\n# about t\n[t]\na = 1\n';
    expect(edited(setTomlValue(text, ['version'], 2))).toBe(
      '# file header\n\nversion = 2\n\n# about t\n[t]\na = 1\n',
    );
    expect(edited(setTomlValue('', ['version'], 3))).toBe('version = 3\n');
  });

  it('may define a super-table after its sub-table', () => {
    expect(edited(setTomlValue('[a.b.c]\nx = 1\n', ['a', 'b', 'y'], 2))).toBe(
      '[a.b.c]\nx = 1\n\n[a.b]\ny = 2\n',
    );
  });

  it.each([
    ['dotted parent', '[t]\ncni.bin_dir = "/a"\n', ['t', 'cni', 'conf_dir'], /dotted keys/],
    [
      'inline table parent',
      '[t]\ncni = { bin_dir = "/a" }\n',
      ['t', 'cni', 'conf_dir'],
      /inline table/,
    ],
    [
      'key inside an inline table',
      '[t]\ncni = { bin_dir = "/a" }\n',
      ['t', 'cni', 'bin_dir'],
      /inline table/,
    ],
    ['array of tables', '[[t]]\na = 1\n', ['t', 'a'], /not a table/],
    ['below an array of tables', '[[t]]\na = 1\n[t.u]\nb = 1\n', ['t', 'u', 'b'], /not a table/],
    ['parent is a value', 'a = 1\n', ['a', 'b'], /not a table/],
    ['the path is a table', '[a.b]\nx = 1\n', ['a', 'b'], /is a table/],
  ])('refuses: %s', (_name, text, path, reason) => {
    expect(setTomlValue(text, path, 'v')).toEqual({
      ok: false,
      reason: expect.stringMatching(reason),
    });
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['unsafe integer', 2 ** 60],
    ['object', { a: 1 } as unknown as string],
    ['mixed array', ['a', 1] as unknown as string[]],
  ])('refuses unrepresentable values: %s', (_name, value) => {
    expect(setTomlValue('x = 1\n', ['x'], value)).toMatchObject({ ok: false });
  });

  it('refuses malformed documents and bad paths without throwing', () => {
    expect(setTomlValue('x = [\n', ['x'], 1)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^cannot edit: .* \(line 2, column 1\)$/),
    });
    expect(setTomlValue('x = 1\n', [], 1)).toMatchObject({ ok: false });
    expect(setTomlValue('x = 1\n', [1] as unknown as string[], 1)).toMatchObject({ ok: false });
    expect(setTomlValue(null as unknown as string, ['x'], 1)).toMatchObject({ ok: false });
  });
});

describe('removeTomlKey', () => {
  it('removes a multi-line assignment and its trailing comment', () => {
    expect(edited(removeTomlKey('a = 1\nb = [\n  1,\n  2,\n] # c\nd = 3\n', ['b']))).toBe(
      'a = 1\nd = 3\n',
    );
  });

  it('removes a last line without a line break', () => {
    expect(edited(removeTomlKey('a = 1\nb = 2', ['b']))).toBe('a = 1\n');
  });

  it('refuses absent keys and keys it cannot address', () => {
    expect(removeTomlKey('a = 1\n', ['b'])).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not set/),
    });
    expect(removeTomlKey('a = { b = 1 }\n', ['a', 'b'])).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/inline table/),
    });
    expect(removeTomlKey('[a]\nb = 1\n', ['a'])).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/is a table/),
    });
  });
});

describe('removeArrayElement', () => {
  it.each([
    ['only element', 'a = ["cri"]\n', 'a = []\n'],
    ['only element with padding', 'a = [ "cri" ] # x\n', 'a = [] # x\n'],
    ['first of several', 'a = ["cri", "x"]\n', 'a = ["x"]\n'],
    ['middle', 'a = ["x", "cri", "y"]\n', 'a = ["x", "y"]\n'],
    ['last with trailing comma', 'a = ["x", "cri",]\n', 'a = ["x",]\n'],
    ['single quotes', "a = ['x', 'cri']\n", "a = ['x']\n"],
    ['duplicates', 'a = ["cri", "x", "cri", "cri"]\n', 'a = ["x"]\n'],
    [
      'own line with comment',
      'a = [\n  "x", # keep\n  "cri", # drop\n  "y",\n]\n',
      'a = [\n  "x", # keep\n  "y",\n]\n',
    ],
    ['last own line without comma', 'a = [\n  "x",\n  "cri"\n]\n', 'a = [\n  "x",\n]\n'],
    [
      'shares a line with the next element',
      'a = [\n  "cri", "x",\n  "y",\n]\n',
      'a = [\n  "x",\n  "y",\n]\n',
    ],
    [
      'shares a line with the previous element',
      'a = [\n  "x", "cri",\n  "y",\n]\n',
      'a = [\n  "x",\n  "y",\n]\n',
    ],
    ['first on the opening line', 'a = ["cri",\n  "x"]\n', 'a = [\n  "x"]\n'],
    ['last on the closing line', 'a = ["x",\n  "cri"]\n', 'a = ["x"]\n'],
    ['with nested values', 'a = [[1, 2], "cri", { b = "cri" }]\n', 'a = [[1, 2], { b = "cri" }]\n'],
  ])('%s', (_name, text, expected) => {
    expect(edited(removeArrayElement(text, ['a'], 'cri'))).toBe(expected);
  });

  it('refuses non-arrays and missing elements', () => {
    expect(removeArrayElement('a = "cri"\n', ['a'], 'cri')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not an array/),
    });
    expect(removeArrayElement('a = ["x"]\n', ['a'], 'cri')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not in/),
    });
  });
});

describe('self-check', () => {
  const before = analyzeToml('a = 1\nb = 2\n');
  if (!before.ok) throw new Error('fixture does not parse');

  it('accepts the intended change only', () => {
    expect(verifyEdit(before, 'a = 5\nb = 2\n', ['a'], { kind: 'set', value: 5 })).toMatchObject({
      ok: true,
    });
    expect(verifyEdit(before, 'b = 2\n', ['a'], { kind: 'remove' })).toMatchObject({ ok: true });
  });

  it('rejects collateral changes, additions and unparsable output', () => {
    expect(verifyEdit(before, 'a = 5\nb = 3\n', ['a'], { kind: 'set', value: 5 })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/\["b"\]/),
    });
    expect(
      verifyEdit(before, 'a = 5\nb = 2\nc = 1\n', ['a'], { kind: 'set', value: 5 }),
    ).toMatchObject({ ok: false, reason: expect.stringMatching(/unexpected key/) });
    expect(verifyEdit(before, 'a = 5\nb = \n', ['a'], { kind: 'set', value: 5 })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/does not parse/),
    });
    expect(verifyEdit(before, 'a = "5"\nb = 2\n', ['a'], { kind: 'set', value: 5 })).toMatchObject({
      ok: false,
    });
  });
});
