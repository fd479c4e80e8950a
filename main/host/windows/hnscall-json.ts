/**
 * HNS's own answer to a v1 GET through vmcompute.dll's HNSCall, which collect.ps1 passes through
 * as text: `{"Success":true,"Output":[…]}`, or `{"Success":false,"Error":"…","ErrorCode":n}` (KB
 * windows docs/knowledge/windows-hns.md#creating-and-removing-networks error envelope). Untrusted: anything else is a problem, never a throw.
 */
import type { Obj } from './untrusted-json';
import { isObj } from './untrusted-json';

export interface HnsCallParse {
  objects: Obj[];
  /** HNS's own error (Success false), with its code. */
  error?: string;
  /** Why the text could not be used, or how many entries were not objects. */
  problems: string[];
}

export function objectsFromHnsCall(text: string): HnsCallParse {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { objects: [], problems: [`not JSON: ${(e as Error).message}`] };
  }
  if (!isObj(doc)) return { objects: [], problems: ['not an HNS answer (no object)'] };
  if (doc.Success === false || (typeof doc.Error === 'string' && doc.Error !== '')) {
    const code = typeof doc.ErrorCode === 'number' ? ` (error code ${doc.ErrorCode})` : '';
    return {
      objects: [],
      error: `${String(doc.Error ?? 'HNS reported a failure')}${code}`,
      problems: [],
    };
  }
  const out = doc.Output;
  const list = Array.isArray(out) ? out : out === undefined || out === null ? [] : [out];
  const objects = list.filter(isObj);
  const skipped = list.length - objects.length;
  return { objects, problems: skipped > 0 ? [`${skipped} entries ignored (not objects)`] : [] };
}
