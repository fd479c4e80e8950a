import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BundleHost } from '../../host/bundle-host';
import { lineTime } from '../../logs/timestamp';
import { scanHost } from '../scan';

const FIXTURE = fileURLToPath(
  new URL('../../../fixtures/linux/logs-older-than-the-calico-fix', import.meta.url),
);

describe('lineTime', () => {
  it('reads a journald short-iso prefix before the message time', () => {
    expect(
      lineTime('2024-05-02T09:14:28+0000 node-1 containerd[712]: time="2024-05-02T09:18:40Z"'),
    ).toBe(Date.parse('2024-05-02T09:14:28Z'));
  });
  it('reads logrus time= with nanoseconds', () => {
    expect(lineTime('time="2026-12-01T08:58:14.880123456Z" level=error')).toBe(
      Date.parse('2026-12-01T08:58:14.880Z'),
    );
  });
  it('gives a klog header the year that puts it before the reference', () => {
    const ref = Date.parse('2027-01-02T00:00:00Z');
    expect(lineTime('E1231 23:59:58.000001    1184 kubelet.go:1] x', ref)).toBe(
      Date.parse('2026-12-31T23:59:58Z'),
    );
  });
  it('does not guess a zone it was not given', () => {
    expect(lineTime('2024-05-02 09:14:28 something')).toBeUndefined();
    expect(lineTime('no time here')).toBeUndefined();
  });
});

describe('log lines older than the configuration', () => {
  it('marks them "before the last change" and takes a log-only finding down to info', async () => {
    const { report } = await scanHost(await BundleHost.open(FIXTURE));
    const f = report.findings.find((x) => x.rule === 'log.cni.reload-failed');
    const lines = f?.evidence.filter((e) => e.kind === 'log') ?? [];
    expect(lines.length).toBeGreaterThan(0);
    for (const e of lines)
      expect(e.kind === 'log' && e.note).toBe(
        'before the last change of /etc/cni/net.d/10-calico.conflist (2024-05-02 09:31:05Z)',
      );
    expect(f?.severity).toBe('info');
    expect(f?.summary).toMatch(/^Every line below was written before the last change/);
    expect(report.summary?.topFindingId).toBeUndefined();
  });
});
