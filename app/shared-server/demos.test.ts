/**
 * A demo is the first thing a newcomer trusts: what its card says must be what a scan of its
 * bundle reports.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BundleHost } from '../../main/host/bundle-host';
import { scanHost } from '../../main/engine/scan';
import { DEMOS, demoPath } from './demos';

const DEMOS_DIR = fileURLToPath(new URL('../../assets/demo', import.meta.url));

async function scanDemo(id: string) {
  const dir = demoPath(DEMOS_DIR, id);
  if (!dir) throw new Error(`demo ${id} has no bundle`);
  return (await scanHost(await BundleHost.open(dir))).report;
}

describe('the Windows demo tells the story its card tells', () => {
  const card = DEMOS.find((d) => d.id === 'windows-antrea-containerd')?.description ?? '';

  it('names the NAT config in use and the Antrea netns failure, both found by the scan', async () => {
    const r = await scanDemo('windows-antrea-containerd');
    const shadow = r.findings.find((f) => f.rule === 'cni.conf.shadowed-by-default');
    expect(card).toContain('0-containerd-nat.json');
    expect(shadow?.summary).toContain('0-containerd-nat.json');
    expect(card).toContain('unexpected netNS');
    const netns = r.findings.find((f) => f.rule === 'windows.netns.unsupported');
    const line = netns?.evidence.find(
      (e) => e.kind === 'log' && e.text.includes('unexpected netNS'),
    );
    // The card says the line is from before the NAT config: so does the evidence.
    expect(line && line.kind === 'log' ? line.note : undefined).toMatch(
      /^before the last change of C:\\etc\\cni\\net\.d\\0-containerd-nat\.json/,
    );
  });

  it('promises no failure the scan does not report', async () => {
    const r = await scanDemo('windows-antrea-containerd');
    const failing = new Set(r.checks.filter((c) => c.status === 'fail').map((c) => c.rule));
    if (/cnisock/i.test(card) && /missing|stopped/i.test(card))
      expect(failing.has('windows.cnisock.missing')).toBe(true);
    if (/NAT config is in use|wires new pods to NAT/.test(card))
      expect(failing.has('cni.conf.shadowed-by-default')).toBe(true);
  });
});
