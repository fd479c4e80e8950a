/**
 * What every probe receives: the host, and cached reads so two probes asking for the same file
 * cost one read (and a recording host records it once).
 */
import type { Host, ListResult, ReadResult, StatResult } from '../host/host';
import { READ_LIMITS } from '../bundle/limits';
import type { TextFile } from '../../shared/model/snapshot';
import type { Fact } from '../../shared/model/fact';
import { known, unknownFact } from '../../shared/model/fact';

export class ProbeContext {
  private readonly reads = new Map<string, Promise<ReadResult>>();
  private readonly lists = new Map<string, Promise<ListResult>>();
  private readonly stats = new Map<string, Promise<StatResult>>();

  constructor(readonly host: Host) {}

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
    return known({ path, text: decodeText(r.data), truncated: r.truncated });
  }
}

/** UTF-8, or UTF-16LE when it starts with a BOM (Windows tools write those). */
export function decodeText(data: Buffer): string {
  if (data.length >= 2 && data[0] === 0xff && data[1] === 0xfe)
    return data.subarray(2).toString('utf16le');
  const s = data.toString('utf8');
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}
