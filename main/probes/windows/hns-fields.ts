/**
 * Tolerant readers for untrusted HNS JSON. PowerShell serialisation is inconsistent: a single
 * object comes out where an array was meant, Windows PowerShell 5.1 can wrap arrays as
 * `{"value":[…],"Count":n}`, enums arrive as numbers or strings, booleans as `"True"` after a
 * round-trip through list formatting (docs/knowledge/windows-hns.md#getting-json-out-reliably). These helpers absorb all of that so the
 * normaliser stays a straight mapping. They are hot (25,000 objects per scan), so no allocation
 * happens unless a value is actually converted. The generic readers live with the collection
 * parser (host/windows/untrusted-json.ts); the HNS-specific ones are here.
 */
import { str, type Obj } from '../../host/windows/untrusted-json';

export {
  asList,
  bool,
  fit,
  isObj,
  num,
  sized,
  str,
  strList,
  type Obj,
} from '../../host/windows/untrusted-json';

/** Canonical GUID text: trimmed, braces removed, lower case. Non-GUID IDs are lower-cased too. */
export function guid(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  let s = v.trim();
  if (
    s.length >= 2 &&
    s.charCodeAt(0) === 0x7b /* { */ &&
    s.charCodeAt(s.length - 1) === 0x7d /* } */
  )
    s = s.slice(1, -1).trim();
  if (s === '') return undefined;
  return s.toLowerCase();
}

/** The ID of an HNS object or of a `{Id: …}` reference; the casing differs by surface. */
export function idOf(o: Obj): string | undefined {
  return guid(o.ID ?? o.Id ?? o.id);
}

/** MAC text in one form: upper case, `-` separated (HNS mixes `0E-2A-0a-…` and `00:11:…`). */
export function mac(v: unknown): string | undefined {
  const s = str(v);
  if (s === undefined) return undefined;
  return s.trim().replace(/:/g, '-').toUpperCase();
}
