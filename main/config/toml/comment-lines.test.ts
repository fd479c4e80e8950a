import { describe, expect, it } from 'vitest';
import { analyzeToml } from './analyze';
import { scanToml } from './ast-scan';
import { elideCommentLines } from './comment-lines';
import { LineIndex } from './lines';
import { parseToml } from './parse';
import { sample, TOML_SAMPLES } from './testing.testutil';

const CONTAINERS_CONF = sample('containers.conf');
const filler = (n: number) =>
  Array.from({ length: n }, (_, i) => `  # comment ${i}: the default is shown`).join('\n');

describe('elideCommentLines', () => {
  it('leaves the parser a fraction of a mostly-comment config, every line break kept', () => {
    const e = elideCommentLines(CONTAINERS_CONF);
    expect(e).toBeDefined();
    if (!e) return;
    // Work counted, not timed: the characters the parser walks through one at a time.
    expect(e.text.length).toBeLessThan(CONTAINERS_CONF.length / 10);
    expect(e.text.split('\n')).toHaveLength(CONTAINERS_CONF.split('\n').length);
    expect(e.text.split('\n').filter((l) => l === '#')).toHaveLength(577);
  });

  it('maps every character the parser sees back to the same character of the original', () => {
    for (const text of [
      CONTAINERS_CONF,
      `${filler(40)}\r\na = 1\r\n${filler(40).replace(/\n/g, '\r\n')}\r\n[t]\r\nb = [\r\n${filler(30)}\r\n  2,\r\n]\r\n# last`,
    ]) {
      const e = elideCommentLines(text);
      expect(e).toBeDefined();
      if (!e) continue;
      for (let i = 0; i < e.text.length; i++) {
        const at = e.toOriginal(i);
        // The one `#` left of an emptied line stands for that line's start.
        if (text[at] !== e.text[i]) expect(text.slice(at), `offset ${i}`).toMatch(/^[ \t]*#/);
        else expect(text[at]).toBe(e.text[i]);
      }
      expect(e.toOriginal(e.text.length)).toBe(text.length);
    }
  });

  it('leaves a document with a multi-line string whole (a # line there is text)', () => {
    expect(elideCommentLines(`${filler(50)}\na = """\n# not a comment\n"""\n`)).toBeUndefined();
    expect(elideCommentLines(`${filler(50)}\na = '''\n# not a comment\n'''\n`)).toBeUndefined();
  });

  it('leaves a few comments alone (the mapping would cost more than it saves)', () => {
    expect(elideCommentLines('# one comment\na = 1\n')).toBeUndefined();
  });

  it('keeps a comment line with a control character, so the parser still refuses it', () => {
    const text = `${filler(50)}\n# bell \u0007 here\na = 1\n`;
    const e = elideCommentLines(text);
    expect(e?.text).toContain('\u0007');
    const r = parseToml(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.line).toBe(51);
  });
});

describe('parseToml with comment lines emptied', () => {
  /** The scan of the document as it is, with no elision: what parseToml must still give. */
  function rawScan(text: string) {
    const r = scanToml(text);
    return r.ok ? { value: r.value, headers: r.headers, keys: r.keys } : r;
  }

  it('gives the same values and the same offsets as parsing the document whole', () => {
    const docs = [
      CONTAINERS_CONF,
      ...TOML_SAMPLES.map(sample),
      `${filler(30)}\ndisabled_plugins = [\n${filler(30)}\n  "cri",\n  # "other",\n]\n${filler(30)}\n[plugins."io.containerd.grpc.v1.cri".cni]\n${filler(30)}\n  conf_dir = "/etc/cni/net.d" # trailing\n${filler(5)}`,
    ];
    for (const text of docs) {
      const a = analyzeToml(text);
      expect(a.ok).toBe(true);
      if (!a.ok) continue;
      expect({ value: a.value, headers: a.headers, keys: a.keys }).toEqual(rawScan(text));
    }
  });

  it('reports an error at the line and column the whole document gives', () => {
    const cases = [
      `${filler(60)}\n[network]\nnetwork_backend = \n${filler(20)}\n`,
      `${filler(60)}\na = [1,\n${filler(20)}`,
      `${filler(60)}\n[t]\n__proto__ = 1\n`,
      `${filler(60)}\n[t\n${filler(3)}`,
    ];
    for (const text of cases) {
      const raw = scanToml(text);
      expect(raw.ok).toBe(false);
      if (raw.ok) continue;
      const r = parseToml(text);
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      const at = new LineIndex(text).position(raw.offset);
      expect({ line: r.error.line, column: r.error.column }).toEqual(at);
    }
  });

  it('edits a mostly-comment config at the right place, every comment kept', async () => {
    const { setTomlValue } = await import('./edit');
    const r = setTomlValue(CONTAINERS_CONF, ['network', 'network_backend'], 'netavark');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const after = parseToml(r.text);
    expect(after.ok && after.value.network).toMatchObject({ network_backend: 'netavark' });
    const comments = (t: string) => t.split('\n').filter((l) => l.trimStart().startsWith('#'));
    expect(comments(r.text)).toEqual(comments(CONTAINERS_CONF));
    // One line added, nothing else moved.
    expect(r.text.split('\n').length).toBe(CONTAINERS_CONF.split('\n').length + 1);
  });
});
