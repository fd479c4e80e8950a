// A minimal ustar writer: enough for an OCI image layer and an OCI layout archive that
// `ctr images import` accepts. Entries get fixed owner (0:0) and mtime so builds are reproducible.

export interface TarEntry {
  /** Relative path; directories end with "/". At most 100 bytes (no prefix field handling). */
  name: string;
  data?: Buffer;
  mode?: number;
}

const BLOCK = 512;

export function tarArchive(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const isDir = e.name.endsWith('/');
    const data = isDir ? Buffer.alloc(0) : (e.data ?? Buffer.alloc(0));
    parts.push(header(e.name, data.length, e.mode ?? (isDir ? 0o755 : 0o644), isDir ? '5' : '0'));
    parts.push(data, Buffer.alloc((BLOCK - (data.length % BLOCK)) % BLOCK));
  }
  parts.push(Buffer.alloc(BLOCK * 2)); // end-of-archive marker
  return Buffer.concat(parts);
}

function header(name: string, size: number, mode: number, type: '0' | '5'): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar entry name too long: ${name}`);
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, 'utf8');
  octal(h, 100, 8, mode);
  octal(h, 108, 8, 0); // uid
  octal(h, 116, 8, 0); // gid
  octal(h, 124, 12, size);
  octal(h, 136, 12, 0); // mtime
  h.fill(0x20, 148, 156); // checksum is computed with its own field as spaces
  h.write(type, 156, 1, 'ascii');
  h.write('ustar\u0000', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  h.write('root', 265, 32, 'ascii');
  h.write('root', 297, 32, 'ascii');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(sum.toString(8).padStart(6, '0') + '\u0000 ', 148, 8, 'ascii');
  return h;
}

function octal(buf: Buffer, offset: number, width: number, value: number): void {
  buf.write(value.toString(8).padStart(width - 1, '0') + '\u0000', offset, width, 'ascii');
}
