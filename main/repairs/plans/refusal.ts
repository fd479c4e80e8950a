/** A plan builder's "no": thrown from helpers, turned into `{ ok: false, reason }` by buildPlan. */
export class PlanRefusal extends Error {}

export function refuse(reason: string): never {
  throw new PlanRefusal(reason);
}
