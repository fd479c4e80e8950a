/**
 * The HNS object whose JSON dialog is open. Held outside the button that opened it: a button in a
 * virtualised row unmounts when the row scrolls away, and the dialog must not go with it.
 */
import { create } from 'zustand';
import type { HnsObjectKind } from '../../../shared/api-inventory';

/** scanId null: the scan shown now (an object named by the address, after a reload). */
export interface OpenObject {
  scanId: string | null;
  kind: HnsObjectKind;
  id: string;
}

export const useOpenObject = create<{
  open: OpenObject | null;
  show(r: OpenObject): void;
  close(): void;
}>((set) => ({
  open: null,
  show: (open) => set({ open }),
  close: () => set({ open: null }),
}));
