/**
 * Sizes shared by everything that writes a bundle archive, in a module of its own so that the
 * log-tail worker (main/bundle/tail/) does not load the tar package to learn them.
 */

/** tar's block: headers and file data both fill whole blocks. */
export const BLOCK = 512;

/** Zero bytes that follow `size` bytes of file data to the end of its last block. */
export function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

/**
 * Level 6, what `tar czf` (gzip's default) uses. Up to 1 MiB out per call into zlib's thread:
 * a log tail compresses about 100:1, and with 64 KiB the thread stopped every few MiB to wait
 * for the main thread (busy reading configs) to take its output.
 */
export const GZIP_OPTIONS = { level: 6, chunkSize: 1024 * 1024 } as const;

/**
 * Log tails (main/bundle/tail/) are compressed at level 3, zlib's fast deflate. On a realistic
 * 64 MiB containerd log (timestamps, random IDs) it took half the time of level 6 or less, for
 * a 4% larger result (9.8 vs 9.4 MiB); a log tail is most of what collect compresses. Only very
 * repetitive text loses much: the benchmark's synthetic log, five lines over and over, becomes
 * 831 KB instead of 371 KB. A few MB more to upload beat seconds of CPU on the node.
 */
export const LOG_GZIP_OPTIONS = { level: 3, chunkSize: 1024 * 1024 } as const;
