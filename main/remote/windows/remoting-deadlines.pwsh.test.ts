/**
 * --node-timeout and --node-session-timeout reach Windows remoting (they used to hold for Linux
 * transports only, and a pssession:/winrm: node kept the session's own 60 s). The node here is a
 * loopback TCP port that accepts and never speaks: ssh waits for a banner that never comes, so
 * New-PSSession -HostName hangs in the real local pwsh until a deadline ends it.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget } from '../open-target';
import { pwshPath } from '../../host/windows/testing/pwsh';
import { PowerShellRemotingRunner } from './powershell-remoting';

let silent: Server;
let port = 0;
const held: Socket[] = [];

beforeAll(async () => {
  silent = createServer((s) => void held.push(s));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  port = (silent.address() as { port: number }).port;
});
afterAll(() => {
  for (const s of held) s.destroy();
  silent.close();
});

/**
 * A ceiling for the local pwsh to start, not what is tested: the product's 30 s ran out once in
 * `npm test` with the unit, lab and UI lanes beside it (a few seconds alone).
 */
const START_MS = 180_000;

const target = (): { kind: 'pssession'; host: string; user: string; port: number } => ({
  kind: 'pssession',
  host: '127.0.0.1',
  user: 'root',
  port,
});

describe('Windows remoting under the node deadlines', () => {
  it('--node-timeout is the deadline of opening the session (was a fixed 60 s)', async () => {
    const opened = await openTarget(target(), {
      remoting: { executable: pwshPath(), startDeadlineMs: START_MS },
      deadlines: { answerMs: 2000 },
    });
    try {
      await expect(opened.host.readFile('C:\\k\\x')).rejects.toThrow(
        /no answer within 2000 ms.*\(--node-timeout\)/s,
      );
    } finally {
      await opened.close();
    }
  });

  it('--node-session-timeout bounds every call of the session, then refuses more', async () => {
    const r = new PowerShellRemotingRunner(target(), {
      executable: pwshPath(),
      startDeadlineMs: START_MS,
      deadlines: { sessionMs: 1500 },
    });
    try {
      const first = await r.run('Write-Output x', { deadlineMs: 60_000 });
      expect(first).toMatchObject({ ok: false, kind: 'timeout' });
      if (!first.ok) expect(first.message).toMatch(/no answer within 1500 ms.*session-timeout/s);
      // The budget is spent: the next call is refused before any shell is asked.
      const second = await r.run('Write-Output x', { deadlineMs: 60_000 });
      expect(second.ok).toBe(false);
      if (!second.ok) expect(second.message).toMatch(/used up its 1500 ms/);
    } finally {
      await r.dispose();
    }
  });
});
