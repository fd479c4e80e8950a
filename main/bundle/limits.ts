/** Caps that keep a hostile or huge bundle from exhausting memory or disk. */
export const BUNDLE_LIMITS = {
  /** Uncompressed bytes accepted from one .tar.gz (a gzip bomb stops here). */
  maxTotalBytes: 768 * 1024 * 1024,
  /**
   * Uncompressed bytes of one archive entry: the collector stores at most a 64 MiB log tail or a
   * 4 MiB config, so anything far larger is a bomb — stop it before it is buffered whole.
   */
  maxEntryBytes: 96 * 1024 * 1024,
  maxEntries: 50_000,
  /**
   * Inflated bytes per compressed byte. Collected configs and logs compress 5–30 times; zeros
   * compress about 1000 times. Checked only past `ratioGraceBytes`, so a small bundle is never
   * refused for compressing well.
   */
  maxRatio: 200,
  ratioGraceBytes: 32 * 1024 * 1024,
  maxManifestBytes: 64 * 1024 * 1024,
  maxPathLength: 4096,
} as const;

/** Caps applied when reading a node (live, recording) — the same caps make replay identical. */
export const READ_LIMITS = {
  /** Configuration files: the start of the file. */
  configBytes: 4 * 1024 * 1024,
  /** Logs: the newest part of the file. */
  logTailBytes: 64 * 1024 * 1024,
  /** Journald excerpts per unit. */
  journalLines: 5000,
} as const;
