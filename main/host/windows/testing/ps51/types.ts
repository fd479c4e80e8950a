/** Type names as PowerShell resolves them, against the 5.1 reference set (data.ts). */
import { NOT_LOADED, ps51Data, type Member, type TypeInfo } from './data';

export interface Resolved {
  full: string;
  /** The type's entry in each .NET Framework set (or SMA); empty for a type the script defines. */
  infos: TypeInfo[];
  local: boolean;
}

/** `List[string]` → ['List', ['string']]; `byte[]` → array of byte. */
function splitGeneric(name: string): { base: string; args: string[]; array: boolean } {
  const t = name.trim();
  if (t.endsWith('[]')) return { base: t.slice(0, -2), args: [], array: true };
  const i = t.indexOf('[');
  if (i < 0 || !t.endsWith(']')) return { base: t, args: [], array: false };
  const inner = t.slice(i + 1, -1);
  const args: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of inner) {
    if (ch === '[') depth++;
    if (ch === ']') depth--;
    if (ch === ',' && depth === 0) {
      args.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim() !== '') args.push(cur.trim());
  return { base: t.slice(0, i), args, array: false };
}

function lookup(full: string): TypeInfo[] | undefined {
  const d = ps51Data();
  const sets = d.netfx.map((s) => s[full]);
  if (sets.every((x) => x !== undefined)) return sets as TypeInfo[];
  const sma = d.sma[full];
  return sma ? [sma] : undefined;
}

/**
 * The type a name means in 5.1, or a reason it means none. `localTypes` are the types the source
 * compiles itself (Add-Type); `loaded` the assemblies it loads with Add-Type -AssemblyName.
 */
export function resolveType(
  name: string,
  localTypes: ReadonlySet<string>,
  loaded: ReadonlySet<string> = new Set(),
): Resolved | { problem: string } {
  const g = splitGeneric(name);
  if (g.array) return resolveType(g.base, localTypes, loaded);
  for (const a of g.args) {
    const r = resolveType(a, localTypes, loaded);
    if ('problem' in r) return r;
  }
  const base = g.args.length > 0 ? `${g.base}\`${g.args.length}` : g.base;
  const lower = base.toLowerCase();
  for (const local of localTypes)
    if (local.toLowerCase() === lower) return { full: local, infos: [], local: true };
  const accel = ps51Data().accelerators[lower];
  const candidates = accel ? [accel] : [base, `System.${base}`];
  for (const c of candidates) {
    const infos = lookup(c) ?? lookupCaseInsensitive(c);
    if (infos) {
      const asm = infos[0]?.asm ?? '';
      if (NOT_LOADED.has(asm) && !loaded.has(asm))
        return {
          problem: `[${name}] is in ${asm}, which Windows PowerShell 5.1 does not load (Add-Type -AssemblyName ${asm} first)`,
        };
      return { full: c, infos, local: false };
    }
  }
  return {
    problem: `[${name}] is no type of Windows PowerShell 5.1 / .NET Framework 4.7.2 and 4.8`,
  };
}

let lowerIndex: Map<string, string> | undefined;
function lookupCaseInsensitive(full: string): TypeInfo[] | undefined {
  if (!lowerIndex) {
    lowerIndex = new Map();
    const d = ps51Data();
    for (const k of Object.keys(d.netfx[0] ?? {})) lowerIndex.set(k.toLowerCase(), k);
    for (const k of Object.keys(d.sma)) lowerIndex.set(k.toLowerCase(), k);
  }
  const exact = lowerIndex.get(full.toLowerCase());
  return exact ? lookup(exact) : undefined;
}

/** Members named `name` on the type (and its bases and interfaces), per reference set. */
export function membersOf(
  infos: TypeInfo[],
  name: string,
  wantStatic: boolean | undefined,
): Member[][] {
  const d = ps51Data();
  const lname = name.toLowerCase();
  return infos.map((start, i) => {
    const set = d.netfx[i] ?? d.sma;
    const found: Member[] = [];
    const seen = new Set<string>();
    const queue: (TypeInfo | undefined)[] = [start];
    while (queue.length > 0) {
      const t = queue.shift();
      if (!t) continue;
      for (const m of t.members)
        if (
          m[2].toLowerCase() === lname &&
          (wantStatic === undefined || (m[1] === 1) === wantStatic)
        )
          found.push(m);
      for (const next of [t.base ?? undefined, ...(t.ifaces ?? [])]) {
        if (!next || seen.has(next)) continue;
        seen.add(next);
        queue.push(set[next.replace(/\[.*$/, '')] ?? d.sma[next]);
      }
    }
    return found;
  });
}

/** Whether a method overload takes `argc` arguments (optional ones and params arrays counted). */
export function arityFits(m: Member, argc: number): boolean {
  const n = m[4]?.length ?? 0;
  const paramsArray = (m[0] === 'M' ? m[5] : m[5]) === 1;
  const optional = (m[0] === 'M' ? m[6] : m[6]) ?? 0;
  if (argc >= n - optional && argc <= n) return true;
  return paramsArray && argc >= n - 1;
}
