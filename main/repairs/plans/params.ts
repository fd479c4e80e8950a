/** Typed access to an offer's params: a missing or mistyped param is a refusal, not a crash. */
import type { ResolvedRepair } from '../../engine/evaluate';
import { refuse } from './refusal';

export function stringParam(r: ResolvedRepair, name: string): string {
  const v = r.offer.params[name];
  if (typeof v !== 'string') refuse(`repair ${r.id} lacks its "${name}" parameter`);
  return v;
}

export function optionalString(r: ResolvedRepair, name: string): string | undefined {
  const v = r.offer.params[name];
  return typeof v === 'string' ? v : undefined;
}

export function stringsParam(r: ResolvedRepair, name: string): string[] {
  const v = r.offer.params[name];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    refuse(`repair ${r.id} lacks its "${name}" parameter`);
  return v;
}

export function boolParam(r: ResolvedRepair, name: string): boolean {
  const v = r.offer.params[name];
  if (typeof v !== 'boolean') refuse(`repair ${r.id} lacks its "${name}" parameter`);
  return v;
}
