/**
 * One HNS namespace into HnsNamespace. v1 lists member endpoints in `ResourceList[{Type:"Endpoint",
 * Data:{Id}}]` and has `Containers`, `CompartmentId`, `IsDefault`; v2 uses `Resources[]` with the
 * same items and a `Type` (KB windows §1.5). Careful: v1 also has a `Resources` field, but it is an
 * allocator object, not a list — only an array is read as members.
 */
import type { HnsNamespace } from './hns-model';
import { asList, bool, guid, isObj, num, str, strList, type Obj } from './hns-fields';

export function normalizeNamespace(o: Obj, id: string, keepRaw: boolean): HnsNamespace {
  const members = o.ResourceList !== undefined ? o.ResourceList : Array.isArray(o.Resources) ? o.Resources : undefined;
  const isV2 = o.ResourceList === undefined && (Array.isArray(o.Resources) || o.NamespaceId !== undefined);
  const ns: HnsNamespace = {
    id,
    endpoints: endpointMembers(members),
    containers: strList(o.Containers),
    schema: isV2 ? 'v2' : 'v1',
  };
  const compartment = num(o.CompartmentId) ?? num(o.NamespaceId);
  if (compartment !== undefined) ns.compartmentId = compartment;
  const isDefault = bool(o.IsDefault);
  if (isDefault !== undefined) ns.isDefault = isDefault;
  const type = str(o.Type);
  if (type !== undefined && isV2) ns.type = type;
  const stateCode = num(o.State);
  if (stateCode !== undefined) ns.stateCode = stateCode;
  if (keepRaw) ns.raw = o;
  return ns;
}

function endpointMembers(v: unknown): string[] {
  const out: string[] = [];
  for (const r of asList(v)) {
    if (!isObj(r)) continue;
    const type = str(r.Type);
    if (type !== undefined && type.toLowerCase() !== 'endpoint') continue;
    const data = r.Data;
    // v2 may carry Data as a JSON string rather than an object.
    const id = isObj(data) ? guid(data.Id ?? data.ID) : typeof data === 'string' ? idInJsonString(data) : undefined;
    if (id !== undefined) out.push(id);
  }
  return out;
}

function idInJsonString(s: string): string | undefined {
  const m = /"I[Dd]"\s*:\s*"([^"]+)"/.exec(s);
  return m ? guid(m[1]) : undefined;
}
