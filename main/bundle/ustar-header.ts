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

/**
 * The fields every header of one (type, mode, mtime) shares, written once: a bundle's headers
 * differ only in path and size. `sum` is the checksum of the template with its checksum field
 * counted as eight spaces (the path and size fields are still zero).
 */
interface Template {
  type: 'File' | 'Directory';
  mode: number;
  ms: number;
  block: Buffer;
  sum: number;
}
let last: Template | undefined;

/** Undefined when the time does not fit the field. */
function template(type: 'File' | 'Directory', mode: number, mtime: Date): Template | undefined {
  const ms = mtime.getTime();
  if (last && last.ms === ms && last.type === type && last.mode === mode) return last;
  const seconds = Math.floor(ms / 1000);
  if (!(seconds >= 0 && seconds < 8 ** 11)) return undefined;
  const block = Buffer.alloc(BLOCK);
  octal(block, 100, mode, 6, ' \0');
  octal(block, 136, seconds, 11, '\0');
  block.write(type === 'File' ? '0' : '5', 156, 'latin1');
  block.write('ustar\x0000', 257, 'latin1');
  octal(block, 329, 0, 6, ' \0');
  octal(block, 337, 0, 6, ' \0');
  let sum = 8 * 0x20;
  for (let i = 0; i < BLOCK; i++) sum += block[i] as number;
  last = { type, mode, ms, block, sum };
  return last;
}

const SIZE_AT = 124;
const SIZE_FIELD = 12;

export function plainUstarHeader(
  path: string,
  type: 'File' | 'Directory',
  size: number,
  mode: number,
  mtime: Date,
): Buffer | undefined {
  if (!PLAIN_PATH.test(path) || !Number.isInteger(size) || size < 0 || size > MAX_SIZE)
    return undefined;
  const t = template(type, mode, mtime);
  if (!t) return undefined;
  const block = Buffer.from(t.block);
  // Only the path and the size differ from the template: the checksum adds their bytes (a
  // whole-block sum per header was most of a 2,000-file bundle's header time).
  let sum = t.sum;
  const n = block.write(path, 0, 'latin1');
  for (let i = 0; i < n; i++) sum += block[i] as number;
  octal(block, SIZE_AT, size, 10, ' \0');
  for (let i = SIZE_AT; i < SIZE_AT + SIZE_FIELD; i++) sum += block[i] as number;
  octal(block, CHECKSUM_AT, sum, 6, ' \0');
  return block;
}
