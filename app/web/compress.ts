/**
 * Compressed API answers: a Windows node's snapshot is tens of MB of JSON that compresses to a
 * fraction, and the browser inflates it natively. Brotli when the client accepts it (quality 4:
 * about gzip's speed, smaller output), else gzip, else as is. Small bodies stay plain.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type Encoding = 'br' | 'gzip' | 'identity';

/** Below this, compressing costs more than it saves. */
export const MIN_COMPRESS_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** The best encoding the client's Accept-Encoding allows (a `;q=0` entry is a refusal). */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q !== undefined && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}

export async function encode(body: Buffer, enc: Encoding): Promise<Buffer> {
  if (enc === 'identity' || body.length < MIN_COMPRESS_BYTES) return body;
  if (enc === 'gzip') return gz(body, { level: 6 });
  return brotli(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}
