/**
 * A bundle's files held in memory: what a live Windows scan collected over PowerShell, answered
 * through the same BundleHost logic a recorded bundle uses (so a live scan and a replay of its
 * recording read the same facts the same way).
 */
import { span, type BundleStore, type ReadRange, type StoreRead } from './store';

export class MemoryStore implements BundleStore {
  /** @param files bundle-relative (`C/etc/cni/net.d/x.conf`) → bytes */
  constructor(
    readonly label: string,
    private readonly manifestText: string,
    private readonly files: ReadonlyMap<string, Buffer>,
  ) {}

  async readManifest(): Promise<string> {
    return this.manifestText;
  }

  async read(rel: string, range: ReadRange = {}): Promise<StoreRead> {
    const data = this.files.get(rel);
    if (!data) return { ok: false, error: 'ENOENT', message: `${rel} was not collected` };
    const { start, length } = span(data.length, range);
    return { ok: true, data: data.subarray(start, start + length), size: data.length };
  }

  async listFiles(): Promise<string[]> {
    return [...this.files.keys()];
  }
}
