// The log signature catalog: every known signature, and the subset worth scanning on one OS.
import { linuxSignatures } from './signatures-linux';
import { windowsSignatures } from './signatures-windows';
import type { LogSignature } from './types';

export const allSignatures: readonly LogSignature[] = [...linuxSignatures, ...windowsSignatures];

/** Signatures for a node's OS, plus the platform-neutral ones. */
export function signaturesFor(os: 'linux' | 'windows'): LogSignature[] {
  return allSignatures.filter((s) => s.platform === os || s.platform === 'any');
}

export function signatureById(id: string): LogSignature | undefined {
  return allSignatures.find((s) => s.id === id);
}

/** Topic rules whose lines only say "it failed" (LogSignature.generic): the cause is elsewhere. */
export const GENERIC_LOG_TOPICS: ReadonlySet<string> = new Set(
  allSignatures.filter((s) => s.generic && s.topic).map((s) => s.topic as string),
);
