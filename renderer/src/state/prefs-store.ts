/**
 * Preferences that survive a restart (localStorage): the theme and the muted findings. Muting is
 * per finding id, which is stable across rescans of the same node (shared/model/finding.ts).
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export type ThemeChoice = 'system' | 'light' | 'dark';

interface Prefs {
  theme: ThemeChoice;
  muted: string[];
  setTheme(t: ThemeChoice): void;
  toggleMute(findingId: string): void;
}

export const usePrefs = create<Prefs>()(
  persist(
    (set) => ({
      theme: 'system',
      muted: [],
      setTheme: (theme) => set({ theme }),
      toggleMute: (id) =>
        set((s) => ({
          muted: s.muted.includes(id) ? s.muted.filter((m) => m !== id) : [...s.muted, id],
        })),
    }),
    {
      name: 'cni-doctor.prefs',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ theme: s.theme, muted: s.muted }),
    },
  ),
);
