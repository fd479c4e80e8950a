/**
 * Passwords asked in the UI (shared/api-credential.ts): the engine's `password(prompt)` callback
 * for a winrm:USER@HOST session becomes a `credential` progress event, and the answer the UI
 * sends (answerCredential) resolves it. The password passes through here once, is handed to the
 * caller and not kept: nothing stores, logs or echoes it, and a question nobody answers in
 * CREDENTIAL_LIMITS.waitMs, or whose scan went away, ends as cancelled.
 */
import { randomBytes } from 'node:crypto';
import { CREDENTIAL_LIMITS, type CredentialAnswer } from '../../shared/api-credential';
import type { ProgressBus } from './progress';

interface Waiting {
  resolve: (password: string | undefined) => void;
}

export interface CredentialQuestion {
  target: string;
  user: string;
  jobId?: string;
  /** The scan went away: the question is withdrawn. */
  signal?: AbortSignal;
}

export class CredentialBroker {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly progress: ProgressBus,
    private readonly waitMs: number = CREDENTIAL_LIMITS.waitMs,
  ) {}

  /** Questions open now (tests). */
  get open(): number {
    return this.waiting.size;
  }

  ask(q: CredentialQuestion): Promise<string | undefined> {
    const requestId = `c-${randomBytes(8).toString('hex')}`;
    return new Promise((resolve) => {
      const finish = (password: string | undefined): void => {
        if (!this.waiting.delete(requestId)) return;
        clearTimeout(timer);
        q.signal?.removeEventListener('abort', onAbort);
        this.progress.emit({ kind: 'credential', requestId, state: 'closed' });
        resolve(password);
      };
      const onAbort = (): void => finish(undefined);
      const timer = setTimeout(() => finish(undefined), this.waitMs);
      timer.unref();
      this.waiting.set(requestId, { resolve: finish });
      q.signal?.addEventListener('abort', onAbort, { once: true });
      this.progress.emit({
        kind: 'credential',
        requestId,
        state: 'asking',
        target: q.target,
        user: q.user,
        ...(q.jobId !== undefined && { jobId: q.jobId }),
      });
      if (q.signal?.aborted) onAbort();
    });
  }

  /** The UI's answer; false when nobody waits for it any more. */
  answer(a: CredentialAnswer): boolean {
    const w = this.waiting.get(a.requestId);
    if (!w) return false;
    w.resolve(a.password);
    return true;
  }
}
