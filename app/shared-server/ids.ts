/** Opaque server-made ids: random, so one cannot be guessed from another. */
import { randomBytes } from 'node:crypto';

export const newScanId = (): string => `s-${randomBytes(8).toString('hex')}`;
export const newBundleId = (): string => `b-${randomBytes(8).toString('hex')}`;
export const newJobId = (): string => `j-${randomBytes(6).toString('hex')}`;
