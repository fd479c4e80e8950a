/**
 * One HNS namespace into HnsNamespace. v1 lists member endpoints in `ResourceList[{Type:"Endpoint",
 * Data:{Id}}]` and has `Containers`, `CompartmentId`, `IsDefault`; v2 uses `Resources[]` with the
 * same items and a `Type` (docs/knowledge/windows-hns.md#field-names). Careful: v1 also has a `Resources` field, but it is an
 * allocator object, not a list — only an array is read as members.
 */
import type { HnsNamespace } from './hns-model';
import { asList, bool, guid, isObj, num, str, strList, type Obj } from './hns-fields';
import type { NormalizeContext } from './normalize-context';

export function normalizeNamespace(o: Obj, id: string, ctx: NormalizeContext): HnsNamespace {
  const members =
    o.ResourceList !== undefined
      ? o.ResourceList
      : Array.isArray(o.Resources)
        ? o.Resources
        : undefined;
  const isV2 =
    o.ResourceList === undefined && (Array.isArray(o.Resources) || o.NamespaceId !== undefined);
  return {
    id,
    endpoints: endpointMembers(members, ctx),
    containers: strList(o.Containers),
    schema: isV2 ? 'v2' : 'v1',
    compartmentId: num(o.CompartmentId) ?? num(o.NamespaceId),
    isDefault: bool(o.IsDefault),
    type: isV2 ? str(o.Type) : undefined,
    stateCode: num(o.State),
    raw: ctx.keepRaw ? o : undefined,
  };
}

function endpointMembers(v: unknown, ctx: NormalizeContext): string[] {
  const out: string[] = [];
  for (const r of asList(v)) {
    if (!isObj(r)) continue;
    const type = str(r.Type);
    if (type !== undefined && type.toLowerCase() !== 'endpoint') continue;
    const data = r.Data;
    // v2 may carry Data as a JSON string rather than an object.
    const id = isObj(data)
      ? ctx.sharedId(data.Id ?? data.ID)
      : typeof data === 'string'
        ? idInJsonString(data)
        : undefined;
    if (id !== undefined) out.push(id);
  }
  return out;
}

function idInJsonString(s: string): string | undefined {
  const m = /"I[Dd]"\s*:\s*"([^"]+)"/.exec(s);
  return m ? guid(m[1]) : undefined;
}
