import { describe, expect, it } from 'vitest';
import { AgentSession, NodeSessionError } from './agent-session';
import { LocalShellTransport } from './testing/local-transport';

/** A "node" whose shell is `script` instead of the agent (the agent's text is ignored). */
const hostile = (script: string): LocalShellTransport =>
  new LocalShellTransport(['sh', '-c', script, 'hostile-sh']);

const GREET = "echo '@ cni-doctor-agent 1 B';";

describe('every answer has a deadline (red-team B3)', () => {
  it('a node that greets and never answers fails the session, naming the target', async () => {
    const s = new AgentSession(hostile(`${GREET} exec sleep 100000`), { answerMs: 300 });
    const err = await s.ask({ op: 'node' }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(NodeSessionError);
    expect((err as Error).message).toMatch(
      /^container:podman\/this-machine \(local shell\) did not answer the node's name within 0\.3 s .*--node-timeout/,
    );
    expect(s.failed).toBe(err);
    // Later questions fail at once with the same error; close does not wait on the hung node.
    await expect(s.ask({ op: 'stat', path: '/' })).rejects.toBe(err);
    await s.close();
  });

  it('a node answering each question just in time is stopped by the session deadline', async () => {
    // Answers every stat after 0.15 s: within the answer deadline, but never done.
    const slow = `${GREET} while read -r op; do read -r a; sleep 0.15; echo "> $op"; echo 'T dir'; echo '<'; done`;
    const s = new AgentSession(hostile(slow), { answerMs: 5000, sessionMs: 600 });
    let answered = 0;
    const err = await (async () => {
      for (;;) {
        await s.ask({ op: 'stat', path: '/' });
        answered++;
      }
    })().catch((e: Error) => e);
    expect((err as Error).message).toMatch(/kept this command waiting for more than 0\.6 s in all/);
    expect(answered).toBeGreaterThan(0);
    await s.close();
  });

  it('time with no question out does not count (a user reading a preview)', async () => {
    const s = new AgentSession(new LocalShellTransport(), { answerMs: 2000, sessionMs: 2000 });
    try {
      expect((await s.ask({ op: 'stat', path: '/' })).type).toBe('dir');
      await new Promise((r) => setTimeout(r, 2500));
      expect((await s.ask({ op: 'stat', path: '/' })).type).toBe('dir');
      expect(s.failed).toBeUndefined();
    } finally {
      await s.close();
    }
  });
});

describe('a hostile node cannot grow this process (red-team B2)', () => {
  it('endless blocks in one answer end the session with a clear error, bytes counted', async () => {
    const line = 'A'.repeat(60_000);
    const s = new AgentSession(
      hostile(
        `${GREET} read -r op; echo "> $op"; while :; do echo B; i=0; while [ $i -lt 100 ]; do echo ${line}; i=$((i+1)); done; echo .; done`,
      ),
    );
    const err = await s.ask({ op: 'read', path: '/etc/os-release', max: 4096 }).catch((e) => e);
    expect((err as Error).message).toMatch(
      /container:podman\/this-machine \(local shell\): .*more than asked for \(a read of \/etc\/os-release: at most 4097 bytes/,
    );
    expect(s.receivedBytes).toBeLessThanOrEqual(4097 + 64 * 1024);
    await s.close();
  });

  it('oversized well-framed answers stop at the session cap', async () => {
    // Answers every read with a full max+1 block of zeros: each within its own cap.
    const framed = `${GREET} while read -r op; do read -r a; read -r m; echo "> $op"; echo 'T file'; echo B; head -c $((m+1)) /dev/zero | base64; echo .; echo '<'; done`;
    const s = new AgentSession(hostile(framed), { maxSessionBytes: 2 << 20 });
    const reads = Array.from({ length: 200 }, (_, i) =>
      s.ask({ op: 'read', path: `/etc/cni/net.d/${i}.conf`, max: 64 * 1024 }).then(
        () => 'ok',
        (e: Error) => e.message,
      ),
    );
    const results = await Promise.all(reads);
    expect(results.filter((r) => r === 'ok').length).toBeLessThanOrEqual(32);
    expect(results.at(-1)).toMatch(/more than 2 MiB in one session/);
    expect(s.receivedBytes).toBeLessThanOrEqual((2 << 20) + 256 * 1024);
    await s.close();
  });
});
