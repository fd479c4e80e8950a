/** Whether the user turned Watch on: rescan by itself when the node changes. */
import { create } from 'zustand';

interface WatchPref {
  on: boolean;
  set(on: boolean): void;
}

export const useWatchPref = create<WatchPref>()((set) => ({
  on: false,
  set: (on) => set({ on }),
}));
