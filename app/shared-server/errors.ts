/** Errors with a code that survives every door (IPC envelope, HTTP status). */
import type { ApiErrorCode, Envelope } from '../../shared/api';
import { inWords } from '../../shared/os-error';

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * Turns anything thrown into an envelope. Unexpected errors keep only their first line: a stack
 * trace or a path from deep inside the engine is not something to hand to a web page.
 */
export function toErrorEnvelope(e: unknown): Envelope<never> {
  // Errno codes in words everywhere a page shows a message (newcomer review, journey 5).
  if (e instanceof ApiError)
    return { ok: false, error: { code: e.code, message: inWords(e.message) } };
  const msg = e instanceof Error ? e.message : String(e);
  return {
    ok: false,
    error: { code: 'internal', message: inWords((msg.split('\n')[0] ?? 'failed').slice(0, 500)) },
  };
}
