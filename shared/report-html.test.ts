import { describe, expect, it } from 'vitest';
import type { Finding } from './model/finding';
import { REPORT_SCHEMA, type Report } from './model/report';
import { fixCommand, renderReportHtml } from './report-html';

const hostileName = '05-<script>alert(1)</script>\x1b[2J".conflist';

function finding(id: string, severity: Finding['severity'], title: string): Finding {
  return {
    id,
    rule: id.split('#')[0] ?? id,
    severity,
    title,
    summary: `summary of ${title}`,
    evidence: [
      {
        kind: 'file',
        path: `/etc/cni/net.d/${hostileName}`,
        lines: [{ line: 3, text: '"type": "<b>"', highlight: true }],
      },
      {
        kind: 'log',
        path: '/var/log/containerd.log',
        line: 12,
        text: 'failed <x>',
        signature: 's',
        tailBytes: 64 * 1048576,
      },
      {
        kind: 'registry',
        key: 'HKLM\\SYSTEM\\CurrentControlSet\\Services\\kubelet\\Parameters',
        value: 'AppParameters',
        data: '--network-plugin=cni --node-labels=<i>x</i>',
        note: "the kubelet service's command line",
      },
    ],
    repairs: [{ id: `${id}:disable`, title: 'Disable it', needsElevation: true }],
  };
}

const report: Report = {
  schema: REPORT_SCHEMA,
  node: { os: 'linux', hostname: 'kind-control-plane', source: 'live' },
  checks: [
    { rule: 'a.pass', status: 'pass' },
    { rule: 'b.unknown', status: 'unknown', reason: 'permission <denied>' },
  ],
  findings: [finding('w.one#x', 'warning', 'A warning'), finding('e.two#y', 'error', 'The cause')],
  summary: {
    os: 'linux',
    runtimes: [],
    counts: { error: 1, warning: 1, info: 0 },
    topFindingId: 'e.two#y',
  },
  target: { target: 'container:podman/kind control', transport: 'podman exec' },
};

describe('the HTML report', () => {
  const html = renderReportHtml(report, { label: 'kind node', version: '0.1.0' });

  it('never lets node strings become markup', () => {
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>"');
    expect(html).toContain('05-&lt;script&gt;alert(1)&lt;/script&gt;\\x1b[2J&quot;.conflist');
    expect(html).not.toContain('\x1b');
    expect(html).toContain('permission &lt;denied&gt;');
    // A registry value (nssm AppParameters) is node text like any other.
    expect(html).not.toContain('<i>x</i>');
    expect(html).toContain(
      '<b>Registry</b> <code>HKLM\\SYSTEM\\CurrentControlSet\\Services\\kubelet\\Parameters</code> AppParameters',
    );
    expect(html).toContain('--node-labels=&lt;i&gt;x&lt;/i&gt;');
  });

  it('is self-contained: no script, no external reference, a CSP that forbids both', () => {
    expect(html).not.toMatch(/<script|<link|src=|url\(/i);
    expect(html).toContain("default-src 'none'");
  });

  it('names the most likely cause first, then every finding, and every check', () => {
    const order = [...html.matchAll(/<h3 id="t-([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!));
    expect(order).toEqual(['e.two#y', 'w.one#x']);
    expect(html).toContain('most likely cause');
    expect(html).toMatch(/<code>b\.unknown<\/code><\/td><td class="st-unknown">unknown/);
    expect(html).toContain('line 12 of the last 64 MiB');
  });

  it('gives fix commands for the same target, quoted for a shell', () => {
    expect(fixCommand('e.two#y:disable', report)).toBe(
      "cni-doctor fix 'e.two#y:disable' --target 'container:podman/kind control'",
    );
    expect(fixCommand('x:y', { target: { target: 'local', transport: 'this machine' } })).toBe(
      'cni-doctor fix x:y',
    );
  });
});

describe('renderReportHtml: could not look (issue 22, point 1)', () => {
  it('says "not running as root" with the command before the verdict', () => {
    const html = renderReportHtml(
      {
        schema: 'cni-doctor.report/v1',
        node: { os: 'linux', source: 'live' },
        checks: [],
        findings: [],
        access: {
          needs: 'root',
          elevated: false,
          denied: [{ rule: 'cri.endpoint.unreachable', reason: 'permission denied on x' }],
          rerun: 'sudo cni-doctor scan --html r.html',
        },
      },
      { label: 'live node' },
    );
    const banner = html.indexOf('Not running as root: 1 check could not look');
    expect(banner).toBeGreaterThan(0);
    expect(banner).toBeLessThan(html.indexOf('Most likely cause'));
    expect(html).toContain('<code>sudo cni-doctor scan --html r.html</code>');
  });
});
