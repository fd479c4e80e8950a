/** What the bundle stores and the archive unpacker share. */
import { BUNDLE_LIMITS } from './limits';

export class BundleError extends Error {}

/** The caps an archive is unpacked under (BUNDLE_LIMITS unless a test passes smaller ones). */
export interface ArchiveLimits {
  maxEntries: number;
  maxTotalBytes: number;
  maxEntryBytes: number;
  /** Inflated bytes per compressed byte, checked once `ratioGraceBytes` have inflated. */
  maxRatio: number;
  ratioGraceBytes: number;
}

/** A `/`-separated name inside the bundle: no `..`, not absolute, no backslash or NUL. */
export function isSafeRel(rel: string): boolean {
  if (rel.length === 0 || rel.length > BUNDLE_LIMITS.maxPathLength) return false;
  if (rel.startsWith('/') || /^[A-Za-z]:/.test(rel) || rel.includes('\\') || rel.includes('\0'))
    return false;
  return rel.split('/').every((seg) => seg !== '..');
}
