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
 * Level 6, what `tar czf` (gzip's default) uses, for everything collect compresses: log tails
 * (main/bundle/tail/) too. They were level 3 for a while (half the CPU of level 6 on a realistic
 * 64 MiB containerd log, 340 vs 607 ms, for a 9% larger result, 11.6 vs 10.6 MiB), but collect's
 * speed is held against `tar czf` of the same files (bench/process.bench.ts): doing less
 * compression than the floor would flatter the comparison, not make collect faster. Up to 1 MiB
 * out per call into zlib's thread: a log tail compresses about 100:1, and with 64 KiB the thread
 * stopped every few MiB to wait for the main thread (busy reading configs) to take its output.
 */
export const GZIP_OPTIONS = { level: 6, chunkSize: 1024 * 1024 } as const;
