/**
 * Issue 20, point 5: every export is as private as `collect`. A node disk whose Calico conflist
 * carries a service-account JWT in `k8s_auth_token` and whose calico plugin binary is missing
 * (so the finding quotes the conf): the JWT is in none of `scan`'s text, `--json` and `--html`
 * outputs, nor in the Markdown the UI copies from that report. `--unredacted` quotes it verbatim
 * and every output says so.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { main } from '../main';
import { captureIo } from '../../../fixtures/capture-io';
import { baseTree } from '../../../fixtures/hostile/build';
import type { Report } from '../../../shared/model/report';
import { findingMarkdown } from '../../../shared/finding-markdown';
import { renderReportHtml } from '../../../shared/report-html';

const JWT =
  'eyJhbGciOiJSUzI1NiIsImtpZCI6IkNhbGljbyJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6a3ViZS1zeXN0ZW06Y2FsaWNvLWNuaS1wbHVnaW4ifQ.c2lnbmF0dXJlLW9mLXRoZS1jYWxpY28tdG9rZW4';
const CALICO = `{
  "name": "k8s-pod-network",
  "cniVersion": "0.3.1",
  "plugins": [
    {
      "type": "calico",
      "datastore_type": "kubernetes",
      "policy": { "type": "k8s", "k8s_auth_token": "${JWT}" },
      "kubernetes": { "kubeconfig": "/etc/cni/net.d/calico-kubeconfig" },
      "ipam": { "type": "calico-ipam" }
    },
    { "type": "portmap", "snat": true, "capabilities": { "portMappings": true } }
  ]
}
`;

const work = mkdtempSync(path.join(tmpdir(), 'scan-redaction-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
// Only the calico conf: the base tree's flannel conf would be loaded first and hide it.
const root = baseTree(path.join(work, 'root'), { '/etc/cni/net.d/10-calico.conflist': CALICO });
rmSync(path.join(root, 'etc/cni/net.d/10-flannel.conflist'));

async function scan(extra: string[]): Promise<{ text: string; json: Report; html: string }> {
  const html = path.join(work, `r${extra.length}.html`);
  const t = captureIo();
  await main(['scan', '--root', root, '--fail-on', 'never', '--cri-timeout', '200', ...extra], t);
  const j = captureIo();
  await main(
    [
      'scan',
      '--root',
      root,
      '--fail-on',
      'never',
      '--cri-timeout',
      '200',
      '--json',
      '--html',
      html,
      ...extra,
    ],
    j,
  );
  return {
    text: t.stdout.join('\n'),
    json: JSON.parse(j.stdout.join('\n')) as Report,
    html: readFileSync(html, 'utf8'),
  };
}

const markdown = (r: Report): string =>
  r.findings.map((f) => findingMarkdown(f, r, 'node disk')).join('\n');

describe('scan exports a Calico k8s_auth_token only when asked, and then says so', () => {
  it('quotes the conf with its token redacted in text, JSON, HTML and Markdown', async () => {
    const { text, json, html } = await scan([]);
    // The finding does quote the conf (otherwise this test would prove nothing).
    const quoted = json.findings
      .flatMap((f) => f.evidence)
      .flatMap((e) => (e.kind === 'file' ? e.lines.map((l) => l.text) : []));
    expect(quoted.some((l) => l.includes('"k8s_auth_token": "REDACTED"'))).toBe(true);
    expect(json.redaction).toMatchObject({ evidence: 'redacted' });
    for (const [name, out] of Object.entries({
      text,
      json: JSON.stringify(json),
      html,
      markdown: markdown(json),
      uiExport: renderReportHtml(json, { label: 'node disk' }),
    }))
      expect(out.includes(JWT.slice(0, 40)), name).toBe(false);
  });

  it('--unredacted quotes it verbatim, and each output says the evidence is not redacted', async () => {
    const { text, json, html } = await scan(['--unredacted']);
    expect(JSON.stringify(json)).toContain(JWT);
    expect(json.redaction).toEqual({ evidence: 'unredacted' });
    expect(text).toMatch(/not redacted/i);
    expect(html).toMatch(/not redacted/i);
    expect(markdown(json)).toMatch(/not redacted/i);
  });
});
