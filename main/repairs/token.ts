/**
 * The preview token names exactly what a preview was computed from: a hash of the plan and one
 * short hash per input file, in the plan's input order. Apply recomputes the plan from a fresh
 * scan and compares slot by slot, so it can say which file changed. Base64url, ≤ 256 chars (the
 * API's token pattern); not a secret — apply re-checks every file itself anyway.
 */
import { createHash } from 'node:crypto';
import type { RepairPlan } from '../../shared/model/repair';

const SLOT = 6;
const MAX_SLOTS = 30;

const short = (s: string): Buffer => createHash('sha256').update(s).digest().subarray(0, SLOT);

function planHash(plan: RepairPlan): Buffer {
  return short(
    JSON.stringify({
      id: plan.repairId,
      steps: plan.steps,
      inputs: plan.inputs.map((i) => `${i.kind}:${i.path}`),
    }),
  );
}

function slots(plan: RepairPlan): Buffer[] {
  const each = plan.inputs.map((i) => short(`${i.kind}:${i.path}:${i.sha256 ?? 'absent'}`));
  if (each.length <= MAX_SLOTS) return each;
  return [
    ...each.slice(0, MAX_SLOTS - 1),
    short(Buffer.concat(each.slice(MAX_SLOTS - 1)).toString('hex')),
  ];
}

export function previewToken(plan: RepairPlan): string {
  return Buffer.concat([Buffer.from([1]), planHash(plan), ...slots(plan)]).toString('base64url');
}

export function compareToken(
  token: string,
  plan: RepairPlan,
): { ok: true } | { ok: false; reason: string } {
  const raw = /^[A-Za-z0-9_-]{8,256}$/.test(token)
    ? Buffer.from(token, 'base64url')
    : Buffer.alloc(0);
  if (raw.length < 1 + SLOT || raw[0] !== 1 || (raw.length - 1) % SLOT !== 0)
    return {
      ok: false,
      reason: 'the preview token is not one this tool issued; preview the repair again',
    };
  const old: Buffer[] = [];
  for (let o = 1 + SLOT; o < raw.length; o += SLOT) old.push(raw.subarray(o, o + SLOT));
  const now = slots(plan);
  if (old.length !== now.length)
    return {
      ok: false,
      reason:
        'the files this repair reads are not the ones it read for the preview; preview it again',
    };
  const changed = now
    .map((s, i) =>
      s.equals(old[i] as Buffer) ? undefined : (plan.inputs[i]?.path ?? 'several files'),
    )
    .filter((p): p is string => p !== undefined);
  if (changed.length > 0)
    return {
      ok: false,
      reason: `${changed.join(', ')} changed since the preview; nothing was touched. Preview the repair again`,
    };
  if (!planHash(plan).equals(raw.subarray(1, 1 + SLOT)))
    return {
      ok: false,
      reason:
        'the repair plan changed since the preview (the node changed); nothing was touched. Preview it again',
    };
  return { ok: true };
}
