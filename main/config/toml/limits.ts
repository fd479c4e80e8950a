// Bounds for untrusted input. Real containerd/CRI-O configs are a few KiB with nesting
// depth ≤ 3 and key paths ≤ 10 segments, so these leave ample headroom while keeping
// the parser away from pathological memory/CPU use.

/** Largest accepted document, in UTF-8 bytes. */
export const MAX_TOML_BYTES = 4 * 1024 * 1024;

/** Deepest accepted nesting of arrays / inline tables inside one value. */
export const MAX_VALUE_DEPTH = 64;

/** Most segments accepted in one key or header path. */
export const MAX_KEY_SEGMENTS = 128;
