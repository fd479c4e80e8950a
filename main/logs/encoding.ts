// Turns a log's bytes into UTF-8 bytes for the scanner. Most logs are UTF-8 already and pass
// through untouched (no copy). Windows PowerShell's `>` and Out-File write UTF-16LE with a
// BOM (FF FE); those, UTF-16BE (FE FF) and BOM-less UTF-16LE text (every other byte NUL) are
// transcoded chunk by chunk so memory stays bounded.

type Encoding = 'utf8' | 'utf16le' | 'utf16be';

/** Bytes needed to tell BOM-less UTF-16LE from UTF-8: four ASCII characters. */
const SNIFF_BYTES = 8;

function looksLikeUtf16le(b: Uint8Array): boolean {
  if (b.length < SNIFF_BYTES) return false;
  for (let i = 0; i < SNIFF_BYTES; i += 2) {
    const lo = b[i] as number;
    if (lo === 0 || lo >= 0x80 || b[i + 1] !== 0) return false;
  }
  return true;
}

export class Utf8Normalizer {
  private encoding: Encoding | undefined;
  private pending: Uint8Array = new Uint8Array(0);
  private decoder: TextDecoder | undefined;
  /** UTF-16BE: an odd byte left over from the previous chunk. */
  private oddByte = -1;

  /** Returns UTF-8 bytes ready for scanning (possibly empty). */
  push(chunk: Uint8Array): Uint8Array {
    if (this.encoding === undefined) {
      const joined = concat(this.pending, chunk);
      if (joined.length < SNIFF_BYTES) {
        // A copy: the source may read its next chunk into the same buffer.
        this.pending = joined === chunk ? Uint8Array.from(chunk) : joined;
        return new Uint8Array(0);
      }
      this.pending = new Uint8Array(0);
      return this.convert(this.detect(joined));
    }
    return this.convert(chunk);
  }

  /** Flush whatever is buffered at end of input. */
  end(): Uint8Array {
    let out: Uint8Array = new Uint8Array(0);
    if (this.encoding === undefined) out = this.convert(this.detect(this.pending));
    if (this.decoder !== undefined) {
      const tail = this.decoder.decode();
      // A dangling odd byte of UTF-16 becomes U+FFFD, like any other undecodable byte.
      const extra = this.oddByte >= 0 ? '\uFFFD' : '';
      if (tail.length + extra.length > 0) out = concat(out, Buffer.from(tail + extra, 'utf8'));
    }
    return out;
  }

  /** Decide the encoding from the first bytes; returns them without any BOM. */
  private detect(head: Uint8Array): Uint8Array {
    if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
      this.encoding = 'utf8';
      return head.subarray(3);
    }
    if (head[0] === 0xff && head[1] === 0xfe) {
      this.useUtf16('utf16le');
      return head.subarray(2);
    }
    if (head[0] === 0xfe && head[1] === 0xff) {
      this.useUtf16('utf16be');
      return head.subarray(2);
    }
    if (looksLikeUtf16le(head)) {
      this.useUtf16('utf16le');
      return head;
    }
    this.encoding = 'utf8';
    return head;
  }

  private useUtf16(encoding: 'utf16le' | 'utf16be'): void {
    this.encoding = encoding;
    // Always decode as little-endian; big-endian input is byte-swapped first, which avoids
    // depending on ICU for 'utf-16be'.
    this.decoder = new TextDecoder('utf-16le', { fatal: false, ignoreBOM: true });
  }

  private convert(bytes: Uint8Array): Uint8Array {
    if (this.encoding === 'utf8' || this.decoder === undefined) return bytes;
    const le = this.encoding === 'utf16be' ? this.swapPairs(bytes) : bytes;
    const text = this.decoder.decode(le, { stream: true });
    return text.length === 0 ? new Uint8Array(0) : Buffer.from(text, 'utf8');
  }

  private swapPairs(bytes: Uint8Array): Uint8Array {
    const src = this.oddByte >= 0 ? concat(Uint8Array.of(this.oddByte), bytes) : bytes;
    const even = src.length & ~1;
    this.oddByte = even < src.length ? (src[even] as number) : -1;
    const out = new Uint8Array(even);
    for (let i = 0; i < even; i += 2) {
      out[i] = src[i + 1] as number;
      out[i + 1] = src[i] as number;
    }
    return out;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
