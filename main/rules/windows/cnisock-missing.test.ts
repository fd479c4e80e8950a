// windows.cnisock.missing on the antrea#1581 node (fixtures/windows): the pipe's absence is judged
// whenever an Antrea config waits in the conf dir — an error once it is in use, a forward warning
// while another config shadows it (newcomer review 3.1: the demo said "pass" with the pipe absent,
// antrea-agent stopped and a log line saying so) — and the check passes once the pipe is there.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scanHost } from '../../engine/scan';
import { BundleHost } from '../../host/bundle-host';
import { windowsCnisockMissing } from './cnisock-missing';

const FIXTURES = join(__dirname, '../../../fixtures/windows');
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function scan(name: string, edit?: (m: Record<string, unknown>) => void) {
  dir = mkdtempSync(join(tmpdir(), 'cnd-cnisock-'));
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  if (edit) {
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    edit(m);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
  }
  const { report } = await scanHost(await BundleHost.open(dir));
  return report;
}

describe('windows.cnisock.missing', () => {
  it('warns ahead while nat shadows Antrea and the pipe is absent, with the agent state and the log line', async () => {
    const r = await scan('antrea-1581-nat-shadows-antrea');
    const f = r.findings.find((x) => x.rule === 'windows.cnisock.missing');
    expect(f?.severity).toBe('warning');
    expect(f?.title).toMatch(/10-antrea\.conflist is not in use yet.*\(service stopped\)/);
    expect(f?.evidence).toContainEqual(
      expect.objectContaining({ kind: 'log', signature: 'windows.antrea.cnisock-missing' }),
    );
    expect(f?.evidence).toContainEqual(
      expect.objectContaining({
        kind: 'text',
        text: expect.stringMatching(/sets cniSocket to another pipe/),
      }),
    );
  });

  it('passes once antrea-agent listens on the pipe', async () => {
    const r = await scan('antrea-1581-antrea-in-use', (m) => {
      (m.pipes as string[]).push('cnisock');
    });
    expect(r.checks.find((c) => c.rule === 'windows.cnisock.missing')?.status).toBe('pass');
  });

  it('is not applicable on a node without an Antrea config', async () => {
    const r = await scan('healthy-flannel-containerd');
    expect(r.checks.find((c) => c.rule === 'windows.cnisock.missing')).toMatchObject({
      status: 'not-applicable',
      reason: expect.stringMatching(/no Antrea config/),
    });
  });
});

describe('windows.cnisock.missing names its assumption (review C5)', () => {
  it("says cnisock is Antrea's default and that a cniSocket setting is not read", () => {
    expect(windowsCnisockMissing.firesWhen).toMatch(/default pipe.*cniSocket/s);
  });
});
