/**
 * CRC-32 (IEEE 802.3, the one zlib.crc32 and gzip compute) in plain JavaScript. The launcher
 * checks every code cache with it before V8 sees the bytes; requiring node:zlib for this loaded
 * zlib and the whole stream module (about 10 ms) on every start, before any command ran, and
 * hashing a 1-2 MB cache here takes a few milliseconds.
 */
const TABLE = ((): Int32Array => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

export function crc32(data: Uint8Array): number {
  let c = -1;
  for (let i = 0; i < data.length; i++)
    c = (TABLE[(c ^ (data[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
