/**
 * What every probe receives: the host, and cached reads so two probes asking for the same file
 * cost one read (and a recording host records it once).
 */
import { isUtf8 } from 'node:buffer';
import type { Host, ListResult, ReadResult, StatResult } from '../host/host';
import { READ_LIMITS } from '../bundle/limits';
import type { TextFile } from '../../shared/model/snapshot';
import type { Fact } from '../../shared/model/fact';
import { known, unknownFact } from '../../shared/model/fact';

export class ProbeContext {
  private readonly reads = new Map<string, Promise<ReadResult>>();
  private readonly lists = new Map<string, Promise<ListResult>>();
  private readonly stats = new Map<string, Promise<StatResult>>();

  constructor(
    readonly host: Host,
    /**
     * false: CNI configs are parsed as libcni v1.3 only. `collect` sets it: what the older
     * libcni generations make of a config decides no read (only the rules use it, and a
     * bundle's scan parses the recorded bytes again).
     */
    readonly olderLoaders = true,
  ) {}

  get os(): 'linux' | 'windows' {
    return this.host.os;
  }

  read(path: string): Promise<ReadResult> {
    let r = this.reads.get(path);
    if (!r)
      this.reads.set(path, (r = this.host.readFile(path, { maxBytes: READ_LIMITS.configBytes })));
    return r;
  }

  list(path: string): Promise<ListResult> {
    let r = this.lists.get(path);
    if (!r) this.lists.set(path, (r = this.host.listDir(path)));
    return r;
  }

  stat(path: string): Promise<StatResult> {
    let r = this.stats.get(path);
    if (!r) this.stats.set(path, (r = this.host.stat(path)));
    return r;
  }

  /** A text file as a Fact: unknown when unreadable, `null` when it does not exist. */
  async text(path: string): Promise<Fact<TextFile | null>> {
    const r = await this.read(path);
    if (!r.ok) return r.error === 'ENOENT' ? known(null) : unknownFact(r.message);
    // A cut at the read limit can split a character: only a whole file is judged.
    const encodingError = r.truncated ? undefined : utf8Error(r.data);
    return known({
      path,
      text: decodeText(r.data),
      truncated: r.truncated,
      ...(encodingError && { encodingError }),
    });
  }
}

/**
 * Where a file that is neither UTF-16 (BOM) nor valid UTF-8 first breaks UTF-8: decoding would
 * turn those bytes into U+FFFD silently, and TOML (containerd's, CRI-O's configs) rejects them.
 */
export function utf8Error(data: Buffer): string | undefined {
  if (data.length >= 2 && data[0] === 0xff && data[1] === 0xfe) return undefined;
  if (isUtf8(data)) return undefined;
  let lo = 0;
  let hi = data.length;
  // The longest valid prefix, to name the line: valid prefixes are closed under shortening up
  // to a character boundary, so bisect on "this prefix (trimmed to a boundary) is valid".
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    let end = mid;
    while (end > 0 && ((data[end] ?? 0) & 0xc0) === 0x80) end--;
    if (isUtf8(data.subarray(0, end))) lo = mid;
    else hi = mid - 1;
  }
  let bad = lo;
  while (bad > 0 && ((data[bad] ?? 0) & 0xc0) === 0x80) bad--;
  const line = data.subarray(0, bad).toString('latin1').split('\n').length;
  return `invalid UTF-8 at line ${line} (byte ${bad + 1})`;
}

/** UTF-8, or UTF-16LE when it starts with a BOM (Windows tools write those). */
export function decodeText(data: Buffer): string {
  if (data.length >= 2 && data[0] === 0xff && data[1] === 0xfe)
    return data.subarray(2).toString('utf16le');
  const s = data.toString('utf8');
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}
