/**
 * Preferences that survive a restart (localStorage): the theme, the muted findings and the
 * detail panel's width. Muting is
 * per finding id, which is stable across rescans of the same node (shared/model/finding.ts).
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export type ThemeChoice = 'system' | 'light' | 'dark';

interface Prefs {
  theme: ThemeChoice;
  muted: string[];
  /** The detail panel's width in CSS pixels; null: the default. */
  detailWidth: number | null;
  /** What was last typed into the Targets screen's field (the server remembers what was opened). */
  typedTarget: string;
  setTypedTarget(t: string): void;
  setTheme(t: ThemeChoice): void;
  setDetailWidth(px: number | null): void;
  toggleMute(findingId: string): void;
}

export const usePrefs = create<Prefs>()(
  persist(
    (set) => ({
      theme: 'system',
      muted: [],
      detailWidth: null,
      typedTarget: '',
      setTypedTarget: (typedTarget) => set({ typedTarget: typedTarget.slice(0, 1024) }),
      setTheme: (theme) => set({ theme }),
      setDetailWidth: (px) =>
        set({ detailWidth: px === null || !Number.isFinite(px) ? null : Math.max(240, px) }),
      toggleMute: (id) =>
        set((s) => ({
          muted: s.muted.includes(id) ? s.muted.filter((m) => m !== id) : [...s.muted, id],
        })),
    }),
    {
      name: 'cni-doctor.prefs',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({
        theme: s.theme,
        muted: s.muted,
        detailWidth: s.detailWidth,
        typedTarget: s.typedTarget,
      }),
    },
  ),
);
