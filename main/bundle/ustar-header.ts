/**
 * A ustar header block for the plain case a bundle nearly always has: an ASCII path shorter
 * than 100 bytes (at 100 the tar package writes folders differently), a size below 1 GiB. Byte
 * for byte what the tar package's Header writes for the same fields (tested), in a fraction of
 * its time: a bundle of 2,000 conflists spent 40 ms making headers. Anything else (a long or
 * non-ASCII path) is left to the tar package (undefined).
 */
import { BLOCK } from './tar-blocks';

const PLAIN_PATH = /^[\x20-\x7e]{1,99}$/;
/** Ten octal digits, as the tar package writes sizes below 1 GiB (bundle entries are far smaller). */
const MAX_SIZE = 8 ** 10 - 1;
const CHECKSUM_AT = 148;

/** `value` as `width` octal digits, then the terminator the tar package writes. */
function octal(block: Buffer, at: number, value: number, width: number, end: string): void {
  block.write(`${value.toString(8).padStart(width, '0')}${end}`, at, 'latin1');
}

export function plainUstarHeader(
  path: string,
  type: 'File' | 'Directory',
  size: number,
  mode: number,
  mtime: Date,
): Buffer | undefined {
  if (!PLAIN_PATH.test(path) || !Number.isInteger(size) || size < 0 || size > MAX_SIZE)
    return undefined;
  const seconds = Math.floor(mtime.getTime() / 1000);
  if (!(seconds >= 0 && seconds < 8 ** 11)) return undefined;
  const block = Buffer.alloc(BLOCK);
  block.write(path, 0, 'latin1');
  octal(block, 100, mode, 6, ' \0');
  octal(block, 124, size, 10, ' \0');
  octal(block, 136, seconds, 11, '\0');
  block.write(type === 'File' ? '0' : '5', 156, 'latin1');
  block.write('ustar\x0000', 257, 'latin1');
  octal(block, 329, 0, 6, ' \0');
  octal(block, 337, 0, 6, ' \0');
  // The checksum counts its own field as eight spaces; the field is still zero here, so the
  // spaces are added rather than written and cleared again (two fills cost more than the sum).
  let sum = 8 * 0x20;
  for (let i = 0; i < BLOCK; i++) sum += block[i] as number;
  octal(block, CHECKSUM_AT, sum, 6, ' \0');
  return block;
}
