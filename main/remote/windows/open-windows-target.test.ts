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
  it.each([
    ['winrm', 'PowerShell remoting (WinRM)'],
    ['pssession', 'PowerShell remoting over SSH'],
  ] as const)('%s: a WindowsHost over PowerShell remoting', async (kind, transport) => {
    const opened = await openTarget({ kind, host: 'win-node-1', user: 'admin' });
    expect(opened.host).toBeInstanceOf(WindowsHost);
    expect(opened.info()).toMatchObject({ target: `${kind}:admin@win-node-1`, transport });
    await opened.close();
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
