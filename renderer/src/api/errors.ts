/** Errors from any door, with the code the engine gave them. */
import type { ApiErrorCode } from '../../../shared/api';

const CODES: readonly ApiErrorCode[] = [
  'bad-request',
  'unauthorized',
  'forbidden',
  'not-found',
  'refused',
  'unavailable',
  'too-large',
  'internal',
];

export class DoctorApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DoctorApiError';
  }
}

/**
 * Electron's contextBridge keeps only an Error's message when a promise rejects, so the preload
 * writes the code in front: "[refused] the node changed since the preview".
 */
export function asApiError(e: unknown): DoctorApiError {
  if (e instanceof DoctorApiError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  const m = /\[([a-z-]+)\] ([\s\S]*)$/.exec(msg);
  if (m && (CODES as readonly string[]).includes(m[1] ?? ''))
    return new DoctorApiError(m[1] as ApiErrorCode, m[2] ?? '');
  return new DoctorApiError('internal', msg);
}
