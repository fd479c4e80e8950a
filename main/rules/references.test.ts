/**
 * Every reference a finding can carry (rule metadata, log signatures) and every
 * docs/knowledge/…#… citation in the repository's code and docs resolves: to a heading or an
 * explicit anchor of a page under docs/knowledge/, or to an upstream https URL.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_RULES } from './catalog';
import { allSignatures } from '../logs/catalog';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, -1/-2 for repeats. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const text = (heading[1] ?? '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
      const slug = text
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-');
      const n = seen.get(slug) ?? 0;
      seen.set(slug, n + 1);
      anchors.add(n === 0 ? slug : `${slug}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1] as string);
  }
  return anchors;
}

const pages = new Map<string, Set<string>>();
function resolves(ref: string): boolean {
  if (/^https:\/\/[^\s/]+\.[^\s/]+\/?\S*$/.test(ref)) return true;
  const m = /^docs\/knowledge\/([a-z0-9-]+\.md)#(\S+)$/.exec(ref);
  if (!m) return false;
  const file = m[1] as string;
  if (!pages.has(file)) {
    let text = '';
    try {
      text = readFileSync(join(ROOT, 'docs/knowledge', file), 'utf8');
    } catch {
      /* a missing page resolves nothing */
    }
    pages.set(file, anchorsOf(text));
  }
  return pages.get(file)?.has(m[2] as string) ?? false;
}

function unresolved(refs: readonly string[]): string[] {
  return refs.filter((r) => !resolves(r));
}

describe('references', () => {
  it('every rule cites at least one place its facts are written down, and each resolves', () => {
    for (const rule of ALL_RULES) {
      expect([rule.id, rule.kb.length > 0]).toEqual([rule.id, true]);
      expect([rule.id, unresolved(rule.kb)]).toEqual([rule.id, []]);
    }
  });

  it('every log signature reference resolves', () => {
    for (const s of allSignatures) expect([s.id, unresolved(s.kb)]).toEqual([s.id, []]);
  });

  it('every docs/knowledge citation in code, fixtures and docs resolves', () => {
    const skip = new Set(['node_modules', 'dist', '.git', 'out', 'files']);
    const bad: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (skip.has(name) || p === fileURLToPath(import.meta.url)) continue;
        const st = statSync(p);
        if (st.isDirectory()) walk(p);
        else if (/\.(ts|tsx|mjs|ps1|md|json)$/.test(name) && st.size < 2_000_000) {
          const text = readFileSync(p, 'utf8');
          for (const m of text.matchAll(/docs\/knowledge\/[a-z0-9-]+\.md#[a-z0-9_-]+/g))
            if (!resolves(m[0])) bad.push(`${relative(ROOT, p)}: ${m[0]}`);
        }
      }
    };
    for (const top of ['app', 'main', 'shared', 'renderer', 'fixtures', 'e2e', 'bench', 'docs'])
      walk(join(ROOT, top));
    expect(bad).toEqual([]);
  });

  it('every relative link in the docs reaches a file (and its heading, when it names one)', () => {
    const docs = [
      'README.md',
      'CONTRIBUTING.md',
      ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`),
      ...readdirSync(join(ROOT, 'docs/knowledge')).map((f) => `docs/knowledge/${f}`),
    ].filter((f) => f.endsWith('.md'));
    const bad: string[] = [];
    for (const doc of docs) {
      // Code is quoted, not linked: `[…](…)` in a code span or block is not a link to follow.
      const text = readFileSync(join(ROOT, doc), 'utf8')
        .replace(/```[\s\S]*?```/g, '')
        .replace(/`[^`\n]+`/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = m[1] as string;
        if (/^(https?:|mailto:)/.test(link)) continue;
        const [file, anchor] = link.split('#') as [string, string | undefined];
        const target = file ? join(ROOT, doc, '..', file) : join(ROOT, doc);
        let body: string | undefined;
        try {
          body = statSync(target).isDirectory() ? '' : readFileSync(target, 'utf8');
        } catch {
          bad.push(`${doc}: ${link} (no such file)`);
          continue;
        }
        if (anchor && !anchorsOf(body).has(anchor)) bad.push(`${doc}: ${link} (no such heading)`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('tells a real anchor from a made-up one (the check bites)', () => {
    expect(resolves('docs/knowledge/cni-loading.md#containerds-loader')).toBe(true);
    expect(resolves('docs/knowledge/log-signatures-linux.md#linux-12')).toBe(true);
    expect(resolves('docs/knowledge/cni-loading.md#no-such-heading')).toBe(false);
    expect(resolves('docs/knowledge/no-such-page.md#containerds-loader')).toBe(false);
    expect(resolves('linux-kb §1.4')).toBe(false);
    expect(resolves('http://example.com/insecure')).toBe(false);
  });
});
