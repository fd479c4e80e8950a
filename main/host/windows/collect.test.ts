import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectWindows, defaultDeadlineMs } from './collect';
import { defaultCollectInput } from './collect-input';
import { PAYLOAD_LINE_PREFIX } from './build-script';
import type { RunOptions, RunResult, ScriptRunner } from './powershell-session';

const doc = JSON.parse(
  readFileSync(
    new URL('../../../fixtures/windows/collect/antrea-1581-containerd-nat.json', import.meta.url),
    'utf8',
  ),
) as Record<string, unknown>;
delete doc.$comment;

class StubRunner implements ScriptRunner {
  calls: { script: string; opts: RunOptions }[] = [];
  disposed = 0;
  constructor(private readonly answer: RunResult) {}
  async run(script: string, opts: RunOptions): Promise<RunResult> {
    this.calls.push({ script, opts });
    return this.answer;
  }
  async dispose(): Promise<void> {
    this.disposed++;
  }
}

describe('collectWindows', () => {
  it('runs the built script once, tolerating stderr, and parses the document', async () => {
    const runner = new StubRunner({ ok: true, stdout: JSON.stringify(doc), stderr: 'WARNING: x' });
    const input = defaultCollectInput({ paths: ['C:\\etc\\cni\\net.d\\10-antrea.conflist'] });
    const r = await collectWindows(runner, input);
    expect(r.ok).toBe(true);
    expect(r.ok && r.collection.host?.hostname).toBe('win-node-1');
    expect(r.ok && r.stderr).toBe('WARNING: x');
    expect(runner.calls).toHaveLength(1);
    expect(runner.calls[0]?.script.startsWith(PAYLOAD_LINE_PREFIX)).toBe(true);
    expect(runner.calls[0]?.opts).toEqual({
      deadlineMs: defaultDeadlineMs(input),
      stderr: 'allow',
    });
    expect(runner.disposed).toBe(0);
  });

  it('passes session failures through and reports unreadable output as parse', async () => {
    expect(
      await collectWindows(
        new StubRunner({ ok: false, kind: 'timeout', message: 'late' }),
        defaultCollectInput(),
      ),
    ).toEqual({
      ok: false,
      kind: 'timeout',
      message: 'late',
    });
    expect(
      await collectWindows(new StubRunner({ ok: true, stdout: 'not json' }), defaultCollectInput()),
    ).toMatchObject({ ok: false, kind: 'parse' });
  });

  it('recycles the shell after a scan in which something hung', async () => {
    const hung = { ...doc, hns: { ...(doc.hns as object), timedOut: true } };
    const runner = new StubRunner({ ok: true, stdout: JSON.stringify(hung) });
    const r = await collectWindows(runner, defaultCollectInput(), { deadlineMs: 1000 });
    expect(r.ok && r.collection.timedOut).toBe(true);
    expect(runner.disposed).toBe(1);
  });
});
