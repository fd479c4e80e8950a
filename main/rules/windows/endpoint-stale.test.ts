// hns.endpoint.stale lists at most 50 endpoints; a longer list says how many more there are and
// where they all are (newcomer review, journey 4: 666 stale endpoints, a list that stopped at 50
// with no "… and N more", in the CLI text and in the UI alike).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scanHost } from '../../engine/scan';
import { BundleHost } from '../../host/bundle-host';
import { hnsEndpointStale } from './endpoint-stale';

const FIXTURE = join(__dirname, '../../../fixtures/windows/stale-endpoints-created-not-attached');
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The fixture's stale endpoint, copied until there are `n` of them. */
async function staleFinding(n: number) {
  dir = mkdtempSync(join(tmpdir(), 'cnd-stale-'));
  cpSync(FIXTURE, dir, { recursive: true });
  const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
    hns: { endpoints: Record<string, unknown>[] };
  };
  const [first] = m.hns.endpoints;
  if (!first) throw new Error('the fixture has no HNS endpoint');
  m.hns.endpoints = Array.from({ length: n }, (_, i) => ({
    ...first,
    ID: `5e6298c2-4638-494e-be6b-${String(i).padStart(12, '0')}`,
    Name: `leaked-${i}`,
  }));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
  const { report } = await scanHost(await BundleHost.open(dir));
  const f = report.findings.find((x) => x.rule === 'hns.endpoint.stale');
  if (!f) throw new Error('no hns.endpoint.stale finding');
  return f;
}

describe('hns.endpoint.stale evidence', () => {
  it('lists 50 endpoints, then says how many more and where they are', async () => {
    const f = await staleFinding(66);
    expect(f.title).toBe('66 stale HNS endpoint(s)');
    expect(f.evidence.filter((e) => e.kind === 'hns')).toHaveLength(50);
    expect(f.evidence.at(-1)).toEqual({
      kind: 'text',
      text: expect.stringMatching(/^… and 16 more stale endpoint\(s\): the Inventory/),
    });
  });

  it('adds no "more" line when every endpoint is listed', async () => {
    const f = await staleFinding(3);
    expect(f.evidence.filter((e) => e.kind === 'hns')).toHaveLength(3);
    expect(f.evidence.some((e) => e.kind === 'text')).toBe(false);
  });
});

describe('hns.endpoint.stale rule text (review C1)', () => {
  it('says where it differs from Microsoft networkhealth.ps1, and why', () => {
    expect(hnsEndpointStale.firesWhen).toMatch(/networkhealth\.ps1/);
    expect(hnsEndpointStale.firesWhen).toMatch(/state Attached is accepted too/);
    expect(hnsEndpointStale.firesWhen).toMatch(/remote endpoints are never flagged/);
  });
});
