/**
 * PowerShell remoting for real: a loopback sshd with pwsh as its `powershell` subsystem, the mock
 * Windows node installed in the REMOTE session, and a WindowsHost scanning through
 * PowerShellRemotingRunner (local pwsh → New-PSSession -HostName → remote pwsh → collect.ps1).
 * The remote scan must give the same findings as the local mocked collection of the same node.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanHost } from '../../engine/scan';
import { PowerShellSession } from '../../host/windows/powershell-session';
import { WindowsHost } from '../../host/windows/windows-host';
import { materializeMockNode } from '../../host/windows/testing/mock-node';
import { pwshPath } from '../../host/windows/testing/pwsh';
import { criOf } from '../../../fixtures/windows/build-bundle';
import { WINDOWS_SCENARIOS } from '../../../fixtures/windows/scenarios';
import { PowerShellRemotingRunner, type RemotingOptions } from './powershell-remoting';
import { startLoopbackSshd, type LoopbackSshd } from './testing/loopback-sshd';

/**
 * A ceiling for a local pwsh to start, not a measure: a few seconds here, over the product's 30 s
 * default in a CI run with the unit tests, the lab and the UI tests beside two CPU hogs.
 */
const START_MS = 180_000;
const work = mkdtempSync(join(tmpdir(), 'cni-doctor-remoting-'));
let sshd: LoopbackSshd;

beforeAll(async () => {
  sshd = await startLoopbackSshd(pwshPath());
}, 60_000);
afterAll(async () => {
  await sshd?.stop();
  rmSync(work, { recursive: true, force: true });
});

function remoteOptions(extra: Partial<RemotingOptions> = {}): RemotingOptions {
  return {
    executable: pwshPath(),
    keyFile: sshd.keyFile,
    sshOptions: { UserKnownHostsFile: sshd.knownHosts, StrictHostKeyChecking: 'yes' },
    startDeadlineMs: START_MS,
    // The same for the remote pwsh behind sshd (over the 60 s default in a CI run).
    connectDeadlineMs: START_MS,
    ...extra,
  };
}

describe('a Windows node over PowerShell remoting (SSH, loopback)', () => {
  // One scenario: a remote scan costs a remote pwsh start and several remote round trips.
  const picks = ['antrea-1581-nat-shadows-antrea'];
  it.each(picks)(
    '%s: the remote scan gives the findings of the local mocked collection',
    async (name) => {
      const s = WINDOWS_SCENARIOS.find((x) => x.name === name);
      if (!s) throw new Error(name);
      const layout = materializeMockNode(s.node, join(work, name));
      // The HNS job's ceiling, far above its few seconds alone (60 s ran out under load elsewhere).
      const input = { nodeRoot: layout.nodeRoot, hnsTimeoutMs: 240_000 };

      const local = new PowerShellSession({ executable: pwshPath(), startDeadlineMs: START_MS });
      const remote = new PowerShellRemotingRunner(
        { kind: 'pssession', host: '127.0.0.1', user: 'root', port: sshd.port },
        remoteOptions({ remoteInit: layout.installScript }),
      );
      try {
        expect((await local.run(layout.installScript, { deadlineMs: 60_000 })).ok).toBe(true);
        const localReport = (await scanHost(new WindowsHost(local, { probeCri: criOf(s), input })))
          .report;
        const remoteHost = new WindowsHost(remote, { probeCri: criOf(s), input });
        const remoteReport = (await scanHost(remoteHost)).report;
        expect(remoteReport.findings.length).toBeGreaterThan(0);
        expect(remoteReport.findings).toEqual(localReport.findings);
        expect(remoteReport.checks.map((c) => `${c.rule}=${c.status}`)).toEqual(
          localReport.checks.map((c) => `${c.rule}=${c.status}`),
        );
        // It really went through the remote shell: HNS as the remote mock answered it.
        expect(remoteHost.recording().manifest.hns?.source).toBe('HNSCall');
      } finally {
        await local.dispose();
        await remote.dispose();
      }
    },
    600_000,
  );

  it('a repair step that throws on the node fails the call (stderr policy holds remotely)', async () => {
    const remote = new PowerShellRemotingRunner(
      { kind: 'pssession', host: '127.0.0.1', user: 'root', port: sshd.port },
      remoteOptions(),
    );
    try {
      const ok = await remote.run("[Console]::Out.WriteLine('{\"pid\":' + $PID + '}')", {
        deadlineMs: 60_000,
      });
      expect(ok.ok && ok.stdout).toMatch(/^\{"pid":\d+\}\r?\n?$/);
      const failed = await remote.run("throw 'not an allowed repair step: x'", {
        deadlineMs: 60_000,
      });
      expect(failed.ok).toBe(false);
      expect(!failed.ok && failed.kind).toBe('stderr');
      expect(!failed.ok && failed.message).toContain('not an allowed repair step: x');
    } finally {
      await remote.dispose();
    }
  }, 400_000);

  it('a node whose session runs in ConstrainedLanguage: one clear reason, nothing else run (review B5)', async () => {
    const remote = new PowerShellRemotingRunner(
      { kind: 'pssession', host: '127.0.0.1', user: 'root', port: sshd.port },
      remoteOptions({
        remoteInit: "$ExecutionContext.SessionState.LanguageMode = 'ConstrainedLanguage'",
      }),
    );
    try {
      const r = await remote.run("[Console]::Out.WriteLine('ran')", { deadlineMs: 60_000 });
      expect(r.ok).toBe(false);
      expect(!r.ok && r.message).toMatch(
        /The node 127\.0\.0\.1 runs PowerShell in ConstrainedLanguage mode .*Nothing was run/,
      );
    } finally {
      await remote.dispose();
    }
  }, 400_000);

  it('a wrong host key is refused (known_hosts is checked), as a failed call, not a crash', async () => {
    const other = mkdtempSync(join(work, 'kh-'));
    const wrong = join(other, 'known_hosts');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      wrong,
      `[127.0.0.1]:${sshd.port} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFLOmKOqBaPm/NXLIfjRgqyDqVWuIhN1rv1xcVtG0Quv\n`,
    );
    const remote = new PowerShellRemotingRunner(
      { kind: 'pssession', host: '127.0.0.1', user: 'root', port: sshd.port },
      remoteOptions({ sshOptions: { UserKnownHostsFile: wrong, StrictHostKeyChecking: 'yes' } }),
    );
    try {
      const r = await remote.run("[Console]::Out.WriteLine('x')", { deadlineMs: 60_000 });
      expect(r.ok).toBe(false);
      expect(!r.ok && r.message).toMatch(/opening the remote session failed/);
    } finally {
      await remote.dispose();
    }
  }, 400_000);
});
