/**
 * winrm:/pssession: targets and kubectl: on a Windows node open a live WindowsHost over the
 * matching runner (nothing is connected until the first scan call).
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WindowsHost } from '../../host/windows/windows-host';
import { openTarget } from '../open-target';

const dir = mkdtempSync(join(tmpdir(), 'cni-doctor-open-win-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('opening Windows targets', () => {
  it("pssession: a WindowsHost over PowerShell remoting (SSH) with this machine's pwsh", async () => {
    const opened = await openTarget({ kind: 'pssession', host: 'win-node-1', user: 'admin' });
    expect(opened.host).toBeInstanceOf(WindowsHost);
    expect(opened.info()).toMatchObject({
      target: 'pssession:admin@win-node-1',
      transport: 'PowerShell remoting over SSH',
    });
    await opened.close();
  });

  it('winrm: from Windows a WindowsHost over WinRM; from Linux/macOS refused with the reason (review B3)', async () => {
    const open = openTarget({ kind: 'winrm', host: 'win-node-1', user: 'admin' });
    if (process.platform === 'win32') {
      const opened = await open;
      expect(opened.info()).toMatchObject({ transport: 'PowerShell remoting (WinRM)' });
      await opened.close();
    } else {
      await expect(open).rejects.toThrow(/no working WSMan client.*pssession:/);
    }
  });

  it('kubectl: on a node kubectl reports as windows goes through a HostProcess pod', async () => {
    const kubectl = join(dir, 'kubectl');
    writeFileSync(kubectl, '#!/bin/sh\nprintf windows\n');
    chmodSync(kubectl, 0o755);
    const opened = await openTarget(
      { kind: 'kubectl', node: 'win-node-1' },
      { kubectl: { client: kubectl } },
    );
    expect(opened.host).toBeInstanceOf(WindowsHost);
    expect(opened.info().transport).toBe('kubectl HostProcess pod');
    await opened.close();
  });

  it('kubectl: on a Linux node (or when kubectl cannot tell) keeps the Linux debug pod', async () => {
    const kubectl = join(dir, 'kubectl-linux');
    writeFileSync(kubectl, '#!/bin/sh\nprintf linux\n');
    chmodSync(kubectl, 0o755);
    const opened = await openTarget(
      { kind: 'kubectl', node: 'n1' },
      { kubectl: { client: kubectl } },
    );
    expect(opened.host).not.toBeInstanceOf(WindowsHost);
    expect(opened.info().transport).toBe('kubectl debug pod');
    await opened.close();
  });
});
