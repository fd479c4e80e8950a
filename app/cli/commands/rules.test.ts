import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rulesMarkdown, ruleInfos } from './rules-doc';

describe('rules catalog', () => {
  it('docs/rules.md is generated from the catalog (run `npm run docs:rules` when this fails)', () => {
    const onDisk = readFileSync(new URL('../../../docs/rules.md', import.meta.url), 'utf8');
    expect(onDisk.trimEnd()).toBe(rulesMarkdown().trimEnd());
  });

  it('covers every rule id of the spec catalog', () => {
    const spec = readFileSync(new URL('../../../../shared/spec/rules.md', import.meta.url), 'utf8');
    const specIds = [...spec.matchAll(/^\| `([a-z0-9.-]+)` \|/gm)].map((m) => m[1]);
    const ours = new Set(ruleInfos().map((r) => r.id));
    const linux = specIds.filter((id) => !id?.startsWith('hns.') && !id?.startsWith('windows.'));
    expect(linux.length).toBeGreaterThanOrEqual(18);
    for (const id of linux) expect(ours.has(id as string), id).toBe(true);
  });

  it('has unique ids', () => {
    const ids = ruleInfos().map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
