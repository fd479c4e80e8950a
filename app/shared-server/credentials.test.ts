import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../shared/api';
import { CredentialBroker } from './credentials';
import { ProgressBus } from './progress';
import { validateRequest } from './validate';

function broker(waitMs?: number): { b: CredentialBroker; events: ProgressEvent[] } {
  const bus = new ProgressBus();
  const events: ProgressEvent[] = [];
  bus.subscribe((e) => events.push(e));
  return { b: new CredentialBroker(bus, waitMs), events };
}

const requestIdOf = (events: ProgressEvent[]): string => {
  const e = events.find((x) => x.kind === 'credential' && x.state === 'asking');
  if (!e || e.kind !== 'credential') throw new Error('no question asked');
  return e.requestId;
};

describe('passwords asked in the UI', () => {
  it('asks with the target and user only, resolves with the answer once, then closes', async () => {
    const { b, events } = broker();
    const asked = b.ask({ target: 'winrm:admin@w1', user: 'admin', jobId: 'j-1' });
    const id = requestIdOf(events);
    expect(events[0]).toEqual({
      kind: 'credential',
      requestId: id,
      state: 'asking',
      target: 'winrm:admin@w1',
      user: 'admin',
      jobId: 'j-1',
    });
    expect(b.answer({ requestId: id, password: 'pw' })).toBe(true);
    await expect(asked).resolves.toBe('pw');
    expect(events.at(-1)).toEqual({ kind: 'credential', requestId: id, state: 'closed' });
    // Answered once: a second answer finds nobody, and nothing holds the question.
    expect(b.answer({ requestId: id, password: 'other' })).toBe(false);
    expect(b.open).toBe(0);
    expect(JSON.stringify(events)).not.toContain('pw');
  });

  it('no password (Cancel), a scan that went away, and a question nobody answers: undefined', async () => {
    const { b, events } = broker(50);
    const cancelled = b.ask({ target: 't', user: 'u' });
    b.answer({ requestId: requestIdOf(events), password: undefined });
    await expect(cancelled).resolves.toBeUndefined();

    const gone = new AbortController();
    const withdrawn = b.ask({ target: 't', user: 'u', signal: gone.signal });
    gone.abort();
    await expect(withdrawn).resolves.toBeUndefined();

    await expect(b.ask({ target: 't', user: 'u' })).resolves.toBeUndefined();
    expect(b.open).toBe(0);
  });

  it('answerCredential requests are checked without quoting the password in the error', () => {
    const requestId = 'c-0123456789abcdef';
    expect(validateRequest('answerCredential', { requestId, password: 'x' })).toEqual({
      requestId,
      password: 'x',
    });
    const long = 'S3CRET'.repeat(100);
    expect(() => validateRequest('answerCredential', { requestId, password: long })).toThrow(
      /the password is too long/,
    );
    try {
      validateRequest('answerCredential', { requestId, password: long });
    } catch (e) {
      expect((e as Error).message).not.toContain('S3CRET');
    }
    expect(() =>
      validateRequest('answerCredential', { requestId: '../x', password: 'S3CRET' }),
    ).toThrow(/requestId has an invalid format/);
    expect(() =>
      validateRequest('answerCredential', { requestId, password: 'S3CRET', extra: 1 }),
    ).toThrow();
  });
});
