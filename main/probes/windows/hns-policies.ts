/**
 * HNS policies in one shape. v1 policies are flat (`{Type:"OutBoundNAT", ExceptionList:[…]}`),
 * v2 nest their parameters (`{Type:"OutBoundNAT", Settings:{Exceptions:[…]}}`) (docs/knowledge/windows-cni-agents.md#flannel
 * "v1 vs v2 naming"). Parameter names are kept as HNS spells them: translating ExceptionList ↔
 * Exceptions would hide which API generation a CNI plugin speaks, which the rules care about.
 */
import type { HnsPolicy } from './hns-model';
import { asList, fit, isObj, sized, str } from './hns-fields';

export function policyOf(v: unknown): HnsPolicy | undefined {
  if (!isObj(v)) {
    // List formatting can leave a bare type name; keep it, it is still evidence.
    const t = str(v);
    return t === undefined ? undefined : { type: t, settings: {} };
  }
  const type = str(v.Type) ?? str(v.type) ?? 'Unknown';
  const settings = v.Settings;
  // v2 carries its parameters under Settings; v1 keeps them beside Type (no copy: this is hot).
  return isObj(settings) ? { type, settings } : { type, settings: v };
}

export function policiesOf(v: unknown): HnsPolicy[] {
  const list = asList(v);
  const out = sized<HnsPolicy>(list.length);
  let k = 0;
  for (let i = 0; i < list.length; i++) {
    const p = policyOf(list[i]);
    if (p !== undefined) out[k++] = p;
  }
  return fit(out, k);
}

export function policyTypes(policies: readonly HnsPolicy[]): string[] {
  const out: string[] = [];
  for (const p of policies) if (!out.includes(p.type)) out.push(p.type);
  return out;
}
