// Streaming log scanner: reads a log of any size with bounded memory and returns the lines that
// match known signatures (see line-scanner.ts for how, encoding.ts for UTF-16 logs).
import { createReadStream } from 'node:fs';
import { Utf8Normalizer } from './encoding';
import { LineScanner } from './line-scanner';
import type { LogScanOptions, LogScanResult, LogSignature } from './types';

export type { LogScanOptions } from './types';

const READ_CHUNK_BYTES = 1024 * 1024;

/** 'EACCES', 'ENOENT', … when the error has a code; otherwise its message. */
function errorCode(err: unknown): string {
  if (typeof err === 'object' && err !== null) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.length > 0) return code;
    const message = (err as { message?: unknown }).message;
    if (typeof message === 'string' && message.length > 0) return message;
  }
  return String(err);
}

function toBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  // A stream set to a string encoding still works (wrongly typed input must not crash the scan).
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  return new Uint8Array(0);
}

/**
 * Scan a log for signature matches. Never throws: a failing source ends the scan and its error
 * is reported in `error`, together with everything matched up to that point.
 */
export async function scanLog(
  source: AsyncIterable<Uint8Array>,
  path: string,
  signatures: readonly LogSignature[],
  opts: LogScanOptions = {},
): Promise<LogScanResult> {
  let bytesScanned = 0;
  let error: string | undefined;
  let scanner: LineScanner | undefined;
  try {
    scanner = new LineScanner(signatures, path, opts);
    const normalizer = new Utf8Normalizer();
    try {
      for await (const raw of source) {
        const chunk = toBytes(raw);
        bytesScanned += chunk.length;
        scanner.push(normalizer.push(chunk));
      }
    } catch (err) {
      error = errorCode(err);
    }
    scanner.push(normalizer.end());
    const totals = scanner.finish();
    return { ...totals, bytesScanned, ...(error === undefined ? {} : { error }) };
  } catch (err) {
    // Only reachable through a bug in the scanner itself; still, report instead of throwing.
    return {
      matches: [],
      bytesScanned,
      lines: 0,
      truncatedLines: 0,
      droppedMatches: 0,
      error: error ?? errorCode(err),
    };
  }
}

/** Stream a file from disk through scanLog. Unreadable files give a result with `error` set. */
export async function scanFile(
  path: string,
  signatures: readonly LogSignature[],
  opts: LogScanOptions = {},
): Promise<LogScanResult> {
  let stream: AsyncIterable<Uint8Array>;
  try {
    stream = createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
  } catch (err) {
    return {
      matches: [],
      bytesScanned: 0,
      lines: 0,
      truncatedLines: 0,
      droppedMatches: 0,
      error: errorCode(err),
    };
  }
  return scanLog(stream, path, signatures, opts);
}
