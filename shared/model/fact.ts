/**
 * A fact the doctor tried to learn. `known: false` is not "absent": it means the doctor could not
 * look (permission denied, not recorded in a bundle, parse error). Rules turn unknown inputs into
 * the `unknown` check status instead of guessing (rules.md: "A check never reports pass when it
 * could not look").
 */
export type Fact<T> =
  { readonly known: true; readonly value: T } | { readonly known: false; readonly reason: string };

export const known = <T>(value: T): Fact<T> => ({ known: true, value });
export const unknownFact = <T = never>(reason: string): Fact<T> => ({ known: false, reason });
