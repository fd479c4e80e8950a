import TOML from '@iarna/toml';
import { parseTOML } from 'toml-eslint-parser';
import { describe, expect, it, vi } from 'vitest';
import { parseToml } from './parse';
import { parseLiteral, sample, TOML_SAMPLES } from './testing.testutil';
import type { TomlParseResult } from './types';
import { isTable } from './value-tree';

// The real parser, watched: a test can tell whether input reached it at all.
vi.mock('toml-eslint-parser', async (importOriginal) => {
  const real = await importOriginal<typeof import('toml-eslint-parser')>();
  return { ...real, parseTOML: vi.fn(real.parseTOML) };
});

type Parsed = Extract<TomlParseResult, { ok: true }>;

function parsed(text: string): Parsed {
  const r = parseToml(text);
  if (!r.ok) throw new Error(`unexpected parse failure: ${r.error.message}`);
  return r;
}

/** Every scalar/array leaf reachable through tables written as headers or dotted keys. */
function leaves(r: Parsed): Array<{ path: string[]; value: unknown }> {
  const out: Array<{ path: string[]; value: unknown }> = [];
  const arrayTables = new Set(
    r.tables.filter((t) => t.isArrayTable).map((t) => JSON.stringify(t.path)),
  );
  const walk = (node: Record<string, unknown>, path: string[]): void => {
    for (const [k, v] of Object.entries(node)) {
      const p = [...path, k];
      if (arrayTables.has(JSON.stringify(p))) continue; // [[array tables]] are not located
      if (isTable(v) && !r.locate(p))
        walk(v, p); // located tables are inline tables
      else out.push({ path: p, value: v });
    }
  };
  walk(r.value, []);
  return out;
}

describe('parseToml on real samples', () => {
  it.each(TOML_SAMPLES)(
    'locates every leaf of %s with a value span that parses to the same value',
    (name) => {
      const text = sample(name);
      const r = parsed(text);
      expect(r.value).toEqual(TOML.parse(text));
      const all = leaves(r);
      expect(all.length).toBeGreaterThan(0);
      for (const { path, value } of all) {
        const loc = r.locate(path);
        expect(loc, path.join('.')).toBeDefined();
        if (!loc) continue;
        expect(parseLiteral(text.slice(loc.valueSpan.start, loc.valueSpan.end))).toEqual(value);
      }
      // …and the converse: nothing located that is not a leaf.
      expect(r.keys.map((k) => JSON.stringify(k.path)).sort()).toEqual(
        all.map((l) => JSON.stringify(l.path)).sort(),
      );
    },
  );

  it.each(TOML_SAMPLES)('gives consistent spans for %s', (name) => {
    const text = sample(name);
    const r = parsed(text);
    const lines = text.split('\n');
    for (const k of r.keys) {
      const { keySpan, valueSpan, lineSpan } = k;
      // line/column agree with offsets
      expect(
        lines[keySpan.line - 1]?.slice(
          keySpan.column - 1,
          keySpan.column - 1 + (keySpan.end - keySpan.start),
        ),
      ).toBe(text.slice(keySpan.start, keySpan.end));
      expect(valueSpan.line).toBeGreaterThanOrEqual(keySpan.line);
      // the key text is the last segment(s) of the path
      expect(TOML.parse(`${text.slice(keySpan.start, keySpan.end)} = 1`)).toBeTruthy();
      // the line span covers whole lines including the line break
      expect(lineSpan.start === 0 || text[lineSpan.start - 1] === '\n').toBe(true);
      expect(lineSpan.end === text.length || text[lineSpan.end - 1] === '\n').toBe(true);
      expect(lineSpan.start).toBeLessThanOrEqual(keySpan.start);
      expect(lineSpan.end).toBeGreaterThanOrEqual(valueSpan.end);
    }
    for (const [i, t] of r.tables.entries()) {
      const header = text.slice(t.headerSpan.start, t.headerSpan.end);
      expect(header.startsWith('[')).toBe(true);
      expect(t.bodyEnd).toBeGreaterThan(t.headerSpan.end);
      const next = r.tables[i + 1];
      expect(t.bodyEnd).toBe(
        next ? text.lastIndexOf('\n', next.headerSpan.start) + 1 : text.length,
      );
      // the header text alone yields a table at exactly this path
      let node: unknown = TOML.parse(header);
      for (const seg of t.path) node = isTable(node) ? node[seg] : undefined;
      expect(isTable(node) || Array.isArray(node)).toBe(true);
    }
  });

  it('reads quoted dotted header segments in the containerd 2.x sample', () => {
    const text = sample('containerd-2.x-cri-config-v3.toml');
    const r = parsed(text);
    const loc = r.locate(['plugins', 'io.containerd.cri.v1.runtime', 'cni', 'bin_dirs']);
    expect(loc?.keySpan.line).toBe(text.split('\n').findIndex((l) => l.includes('bin_dirs')) + 1);
    expect(text.slice(loc?.valueSpan.start, loc?.valueSpan.end)).toBe("['/opt/cni/bin']");
    const cni = r.tables.find(
      (t) => t.path.join('|') === 'plugins|io.containerd.cri.v1.runtime|cni',
    );
    expect(cni && text.slice(cni.headerSpan.start, cni.headerSpan.end)).toBe(
      "[plugins.'io.containerd.cri.v1.runtime'.cni]",
    );
    expect(cni?.headerSpan.column).toBe(5);
  });

  it('spans a multi-line array over its lines (crio plugin_dirs)', () => {
    const text = sample('crio-network-section.conf');
    const loc = parsed(text).locate(['crio', 'network', 'plugin_dirs']);
    expect(loc).toBeDefined();
    expect(loc && loc.valueSpan.endLine - loc.valueSpan.line).toBe(3);
    expect(loc && text.slice(loc.lineSpan.start, loc.lineSpan.end)).toBe(
      'plugin_dirs = [\n\t"/opt/cni/bin/",\n\t"/usr/libexec/cni/",\n]\n',
    );
  });
});

describe('parseToml scanner details', () => {
  it('handles dotted keys, quoted keys and whitespace around dots', () => {
    const text = '[ a . "b.c" ]\nx.y = 1\n"q.r" = 2\n\'s\' . t = 3\n';
    const r = parsed(text);
    expect(r.keys.map((k) => k.path)).toEqual([
      ['a', 'b.c', 'x', 'y'],
      ['a', 'b.c', 'q.r'],
      ['a', 'b.c', 's', 't'],
    ]);
    expect(r.tables[0]?.path).toEqual(['a', 'b.c']);
    const st = r.locate(['a', 'b.c', 's', 't']);
    expect(st && text.slice(st.keySpan.start, st.keySpan.end)).toBe("'s' . t");
  });

  it('is not confused by brackets, quotes, = and # inside strings and comments', () => {
    const text = [
      'a = "[not] # a = header"  # comment [x]',
      "b = '''",
      '[fake]',
      "c = 1 '' '''",
      'd = """',
      'e = \\""" still string',
      '"""',
      'f = [ # comment ]',
      '  "]", # ,,, ]',
      '  [1, [2, {}]],',
      '  { g = "}" },',
      ']',
      'h = { i = 1, j = { k = "x" } }',
      'l = 1979-05-27 07:32:00Z',
      'm = 3',
    ].join('\n');
    const r = parsed(text);
    expect(r.tables).toEqual([]);
    expect(r.keys.map((k) => k.path.join('.'))).toEqual(['a', 'b', 'd', 'f', 'h', 'l', 'm']);
    const m = r.locate(['m']);
    expect(m?.keySpan.line).toBe(15);
    expect(r.locate(['h', 'i'])).toBeUndefined(); // inside an inline table
    for (const k of r.keys) {
      expect(parseLiteral(text.slice(k.valueSpan.start, k.valueSpan.end))).toEqual(
        r.value[k.path[0] ?? ''],
      );
    }
  });

  it('handles multi-line strings ending in extra quotes', () => {
    const r = parsed('a = """x"""""\nb = \'\'\'y\'\'\'\'\'\nc = 1');
    expect(r.value).toEqual({ a: 'x""', b: "y''", c: 1 });
    expect(r.locate(['c'])?.keySpan.line).toBe(3);
  });

  it('keeps CRLF line breaks inside line spans and ignores a BOM', () => {
    const text = '\uFEFFa = 1\r\n\r\n[b]\r\nc = "d" # x\r\n';
    const r = parsed(text);
    expect(r.value).toEqual({ a: 1, b: { c: 'd' } });
    const c = r.locate(['b', 'c']);
    expect(c && text.slice(c.lineSpan.start, c.lineSpan.end)).toBe('c = "d" # x\r\n');
    expect(c?.valueSpan).toMatchObject({ line: 4, column: 5, endLine: 4, endColumn: 8 });
    expect(r.locate(['a'])?.lineSpan).toEqual({ start: 1, end: 8 });
  });

  it('does not locate keys inside array tables but lists the headers', () => {
    const r = parsed('[[w]]\nx = 1\n[w.sub]\ny = 2\n[[w]]\nx = 2\n[z]\nq = 1');
    expect(r.keys.map((k) => k.path)).toEqual([['z', 'q']]);
    expect(r.tables.map((t) => [t.path.join('.'), t.isArrayTable])).toEqual([
      ['w', true],
      ['w.sub', false],
      ['w', true],
      ['z', false],
    ]);
  });

  it('handles a last line without a line break', () => {
    const r = parsed('[t]\nk = "v"');
    expect(r.locate(['t', 'k'])?.lineSpan).toEqual({ start: 4, end: 11 });
    expect(r.tables[0]?.bodyEnd).toBe(11);
  });
});

describe('parseToml errors', () => {
  const failure = (text: string) => {
    const r = parseToml(text);
    if (r.ok) throw new Error('expected a parse failure');
    return r.error;
  };

  it.each([
    ['unterminated string', 'a = 1\nb = "x\n', 2, 7],
    ['missing =', '[t]\nkey value\n', 2, 5],
    ['garbage after value', 'a = 1 2\n', 1, 7],
    ['unclosed header', '[a\nb = 1\n', 2, 1],
    ['unterminated array', 'x = 1\na = [1,\n 2\n', 4, 1],
    ['duplicate key', 'a = 1\na = 2\n', 2, 1],
    ['invalid number', 'a = 0xZZ\n', 1, 7],
    ['lone carriage return', 'a = 1\rb = 2', 1, 6],
  ])('%s → line/column', (_name, text, line, column) => {
    const err = failure(text);
    expect(err).toMatchObject({ line, column });
    expect(err.message).toMatch(/\(line \d+, column \d+\)$/);
  });

  it('rejects input over 4 MiB without parsing it', () => {
    const big = `a = "${'x'.repeat(5 * 1024 * 1024)}"\n`;
    vi.mocked(parseTOML).mockClear();
    expect(failure(big).message).toMatch(/too large.*4 MiB/);
    expect(parseTOML).not.toHaveBeenCalled();
    // The same parser does parse what is under the limit.
    expect(parseToml('a = 1\n').ok).toBe(true);
    expect(parseTOML).toHaveBeenCalledTimes(1);
  });

  it('counts bytes, not characters, for the size limit', () => {
    expect(failure(`a = "${'é'.repeat(2.5 * 1024 * 1024)}"`).message).toMatch(/too large/);
  });

  it('rejects binary garbage with a clear message', () => {
    let seed = 42;
    const bytes = Buffer.from(
      Array.from(
        { length: 4096 },
        () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff,
      ),
    );
    for (const decoded of [bytes.toString('utf8'), bytes.toString('latin1')]) {
      const err = failure(decoded);
      expect(err.message).toMatch(/not a text TOML file/);
      expect(err.line).toBeGreaterThanOrEqual(1);
    }
    expect(failure('version = 2\n\u0000\u0000').message).toMatch(/NUL byte at line 2, column 1/);
  });

  it('rejects pathological nesting', () => {
    expect(failure(`a = ${'['.repeat(10_000)}${']'.repeat(10_000)}`).message).toMatch(
      /nested deeper/,
    );
    expect(failure(`a = ${'{b = '.repeat(1000)}1${'}'.repeat(1000)}`).message).toMatch(
      /nested deeper/,
    );
    expect(failure(`[${Array.from({ length: 500 }, () => 'a').join('.')}]`).message).toMatch(
      /segments/,
    );
  });

  it.each([
    ['toString.x = 1'],
    ['[hasOwnProperty]\ncall = 1'],
    ['a = { constructor = { prototype = { polluted = 1 } } }'],
    ['"__proto__" = 1'],
    ['"\\u0074oString".x = 1'],
    ['[[valueOf]]\nx = 1'],
  ])('refuses keys that would reach Object.prototype: %s', (text) => {
    expect(failure(text).message).toMatch(/reserved JavaScript property name/);
    expect((Object.prototype.toString as unknown as Record<string, unknown>)['x']).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(typeof Object.prototype.hasOwnProperty.call).toBe('function');
  });

  it('never throws for non-string input from untyped callers', () => {
    expect(parseToml(undefined as unknown as string)).toMatchObject({ ok: false });
    expect(parseToml(42 as unknown as string)).toMatchObject({ ok: false });
  });
});
