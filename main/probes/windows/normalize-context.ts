/**
 * State shared by the normalisers during one normalizeHns call. Its job is allocation: a big node
 * has ~60,000 load-balancer → endpoint references naming only ~5,000 endpoints, and every object
 * kept alive after normalising costs garbage-collector time (measured: retained allocations, not
 * the mapping itself, dominated the cost). So equal IDs become one shared string, and lists that
 * are the same for thousands of objects (policy types, empty lists) are shared frozen arrays.
 * The model is read-only for its consumers (rules are pure functions), which makes this safe.
 */
import { guid } from './hns-fields';

const EMPTY: string[] = Object.freeze([]) as unknown as string[];
const MAX_SHARED_TYPE_LISTS = 256;
const sharedTypeLists = new Map<string, string[]>();

export class NormalizeContext {
  private readonly ids = new Map<string, string>();

  constructor(readonly keepRaw: boolean) {}

  /** Canonical ID (hns-fields guid), one string instance per distinct spelling. */
  sharedId(v: unknown): string | undefined {
    if (typeof v !== 'string') return undefined;
    const hit = this.ids.get(v);
    if (hit !== undefined) return hit;
    const id = guid(v);
    if (id !== undefined) this.ids.set(v, id);
    return id;
  }

  /** The endpoint ID in a "/endpoints/<guid>" reference (a bare ID is accepted too). */
  endpointRef(ref: string): string | undefined {
    const hit = this.ids.get(ref);
    if (hit !== undefined) return hit;
    const slash = ref.lastIndexOf('/');
    if (slash >= 0 && ref.toLowerCase().indexOf('/endpoints/') < 0) return undefined; // another kind of reference
    const id = guid(slash >= 0 ? ref.slice(slash + 1) : ref);
    if (id !== undefined) this.ids.set(ref, id);
    return id;
  }

  static empty(): string[] {
    return EMPTY;
  }

  /** A one-element type list shared by every object with that single type. */
  static typeList(t: string): string[] {
    let shared = sharedTypeLists.get(t);
    if (shared === undefined) {
      shared = Object.freeze([t]) as unknown as string[];
      if (sharedTypeLists.size < MAX_SHARED_TYPE_LISTS) sharedTypeLists.set(t, shared);
    }
    return shared;
  }
}
