// One source for severities (newcomer review, README item 4: `rules` listed cni.conf.multiple as
// warning while scans printed INFO, and cni.plugin.missing as error while the scan said WARNING):
// every finding of every fixture and demo has a severity its rule declares, and a rule that
// declares several says when each applies.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ruleSeverities } from '../../shared/model/finding';
import { scanHost } from '../engine/scan';
import { BundleHost } from '../host/bundle-host';
import { ALL_RULES } from './catalog';

const ROOT = join(__dirname, '../..');
const BUNDLE_DIRS = ['fixtures/linux', 'fixtures/windows', 'assets/demo'].flatMap((d) =>
  readdirSync(join(ROOT, d))
    .map((name) => join(ROOT, d, name))
    .filter((dir) => existsSync(join(dir, 'manifest.json'))),
);
const byId = new Map(ALL_RULES.map((r) => [r.id, r]));
/** rule id → the severities its findings had across all bundles. */
const seen = new Map<string, Set<string>>();
const problems: string[] = [];

beforeAll(async () => {
  for (const dir of BUNDLE_DIRS) {
    const { report } = await scanHost(await BundleHost.open(dir));
    for (const f of report.findings) {
      const rule = byId.get(f.rule);
      if (!rule) continue;
      if (!seen.has(rule.id)) seen.set(rule.id, new Set());
      seen.get(rule.id)?.add(f.severity);
      if (!ruleSeverities(rule).includes(f.severity))
        problems.push(
          `${dir.slice(ROOT.length + 1)}: ${f.id} is ${f.severity}; ${rule.id} declares ${ruleSeverities(rule).join('/')}`,
        );
    }
  }
});

describe('rule severities', () => {
  it('scans dozens of bundles (the check below means something)', () => {
    expect(BUNDLE_DIRS.length).toBeGreaterThan(40);
    expect(seen.size).toBeGreaterThan(20);
  });

  it('every finding has a severity its rule declares', () => {
    expect(problems).toEqual([]);
  });

  it('the two rules the review named declare what their scans print', () => {
    const declared = (id: string) => ruleSeverities(byId.get(id) ?? { severity: 'error' });
    expect(declared('cni.conf.multiple')).toEqual(['warning', 'info']);
    expect(declared('cni.plugin.missing')).toEqual(['error', 'warning']);
    // What the review saw scans print for it.
    expect(seen.get('cni.conf.multiple')).toContain('info');
  });

  it('a rule with several severities says when each applies, its highest being `severity`', () => {
    for (const r of ALL_RULES) {
      if (!r.severityWhen) continue;
      const listed = ruleSeverities(r);
      expect(listed.length, r.id).toBeGreaterThan(1);
      expect(listed[0], `${r.id}: severity is the highest`).toBe(r.severity);
      for (const s of listed) expect(r.severityWhen[s], `${r.id} ${s}`).toMatch(/\w/);
    }
  });
});
