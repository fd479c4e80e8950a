/** Size caps on what a renderer may send. Requests carry ids only, so a few KiB is plenty. */
export const REQUEST_LIMITS = {
  /** JSON request bodies (HTTP) and IPC payloads once serialised. */
  maxJsonBytes: 16 * 1024,
  /** An uploaded bundle (.tar.gz). The archive reader caps what it unpacks on top of this. */
  maxUploadBytes: 128 * 1024 * 1024,
  /** Nesting depth of a request payload. */
  maxDepth: 4,
  /** Uploads read and unpacked at once in `serve`, and how many may wait for a turn. */
  maxConcurrentUploads: 2,
  maxQueuedUploads: 16,
  /** Scans running at once in `serve` (each walks a whole node or bundle). */
  maxConcurrentScans: 2,
  maxQueuedScans: 32,
  /**
   * Scans of remote nodes at once (one per node): they mostly wait on the node, each for at most
   * its deadline, and have slots apart from maxConcurrentScans so hung nodes never block the rest.
   */
  maxConcurrentTargetScans: 8,
} as const;
