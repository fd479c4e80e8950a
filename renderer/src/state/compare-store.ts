/** What the Compare screen compares: each side a held scan or a source to scan. */
import { create } from 'zustand';

/** `scan:<scanId>` or `src:<sourceKey>` (shared/source-key.ts). */
export type SidePick = string;

interface ComparePicks {
  before: SidePick | null;
  after: SidePick | null;
  setBefore(p: SidePick | null): void;
  setAfter(p: SidePick | null): void;
}

export const useComparePicks = create<ComparePicks>()((set) => ({
  before: null,
  after: null,
  setBefore: (before) => set({ before }),
  setAfter: (after) => set({ after }),
}));
