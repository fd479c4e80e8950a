import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BundleHost } from '../host/bundle-host';
import { scanHost } from './scan';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('evaluate: log evidence', () => {
  it('quotes a line once even when two signatures of the same rule match it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'evaluate-'));
    dirs.push(dir);
    const files: Record<string, string> = {
      'etc/crio/crio.conf': '[crio.network]\nplugin_dirs = ["/usr/libexec/cni/"]\n',
      'etc/cni/net.d/10-flannel.conflist': JSON.stringify({
        name: 'cbr0',
        cniVersion: '0.3.1',
        plugins: [{ type: 'flannel' }],
      }),
      // Matches linux.cni.plugin-not-found and linux.crio.plugin-dirs-mismatch (both cni.plugin.missing).
      'var/log/crio.log':
        'level=warning msg="Error validating CNI config file /etc/cni/net.d/10-flannel.conflist: [failed to find plugin \\"flannel\\" in path [/usr/libexec/cni/]]"\n',
    };
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(path.join(dir, 'files', path.dirname(p)), { recursive: true });
      writeFileSync(path.join(dir, 'files', p), text);
    }
    const manifest = {
      format: 'cni-doctor.bundle/v1',
      host: { os: 'linux' },
      processes: [{ name: 'crio', args: ['/usr/bin/crio'] }],
      paths: {
        '/usr/libexec/cni': { type: 'dir', entries: ['bridge'] },
        '/opt/cni/bin': { type: 'dir', entries: ['flannel'] },
      },
    };
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    const { report, snapshot } = await scanHost(await BundleHost.open(dir), { skipCri: true });
    expect(new Set(snapshot.logs.matches.map((m) => m.signatureId))).toEqual(
      new Set(['linux.cni.plugin-not-found', 'linux.crio.plugin-dirs-mismatch']),
    );
    const f = report.findings.find((x) => x.rule === 'cni.plugin.missing');
    expect(f?.evidence.filter((e) => e.kind === 'log')).toHaveLength(1);
  });
});
