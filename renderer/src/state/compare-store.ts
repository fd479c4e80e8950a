/** What the Compare screen compares: each side a held scan or a source to scan. */
import { create } from 'zustand';

/** `scan:<scanId>` or `src:<sourceKey>` (shared/source-key.ts). */
export type SidePick = string;

interface ComparePicks {
  before: SidePick | null;
  after: SidePick | null;
  /** The shown scan the picks were last defaulted for. */
  defaultedFor: string | null;
  /**
   * Picks from an address (a reload, Back): kept over the next defaulting, which would otherwise
   * put the scan shown now in their place.
   */
  fromAddress: boolean;
  setBefore(p: SidePick | null): void;
  setAfter(p: SidePick | null): void;
  restore(before: SidePick | null, after: SidePick | null): void;
  /** Set by "Compare before / after": the screen compares these picks as soon as it opens. */
  pendingRun: boolean;
  runNow(before: SidePick, after: SidePick): void;
  ranPending(): void;
  /** After: the scan shown now; Before: an earlier scan of its source, when one is held. */
  defaultTo(shown: string, earlier: string | undefined): void;
}

export const useComparePicks = create<ComparePicks>()((set) => ({
  before: null,
  after: null,
  defaultedFor: null,
  fromAddress: false,
  setBefore: (before) => set({ before }),
  setAfter: (after) => set({ after }),
  restore: (before, after) => set({ before, after, fromAddress: true }),
  pendingRun: false,
  runNow: (before, after) => set({ before, after, fromAddress: true, pendingRun: true }),
  ranPending: () => set({ pendingRun: false }),
  defaultTo: (shown, earlier) =>
    set((s) =>
      s.fromAddress
        ? { defaultedFor: shown, fromAddress: false }
        : {
            defaultedFor: shown,
            after: `scan:${shown}`,
            before: earlier !== undefined ? `scan:${earlier}` : s.before,
          },
    ),
}));
