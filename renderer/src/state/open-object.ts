/**
 * The HNS object whose JSON dialog is open. Held outside the button that opened it: a button in a
 * virtualised row unmounts when the row scrolls away, and the dialog must not go with it.
 */
import { create } from 'zustand';
import type { HnsObjectRequest } from '../../../shared/api-inventory';

export const useOpenObject = create<{
  open: HnsObjectRequest | null;
  show(r: HnsObjectRequest): void;
  close(): void;
}>((set) => ({
  open: null,
  show: (open) => set({ open }),
  close: () => set({ open: null }),
}));
