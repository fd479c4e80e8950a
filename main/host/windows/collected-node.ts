/**
 * What a live Windows scan has collected so far, as one in-memory bundle: the first (full)
 * collection gives every section; follow-up calls add paths and file contents only. Each state
 * is answered through BundleHost, so a live scan reads its facts exactly as a replay of its
 * recording would.
 */
import { BUNDLE_FORMAT, type BundleManifest, type ManifestPathEntry } from '../../bundle/manifest';
import { BundleHost } from '../bundle-host';
import type { BundlePieces } from './collect-manifest';

export class CollectedNode {
  private base: BundlePieces | undefined;
  private readonly paths: Record<string, ManifestPathEntry> = {};
  private readonly files = new Map<string, Buffer>();

  /** The first call's pieces become the node; later ones contribute paths and files only. */
  add(pieces: BundlePieces): void {
    this.base ??= pieces;
    Object.assign(this.paths, pieces.paths ?? {});
    for (const [p, data] of pieces.files) this.files.set(p, data);
  }

  manifest(): BundleManifest {
    const b = this.base;
    if (!b) throw new Error('nothing has been collected yet');
    return {
      format: BUNDLE_FORMAT,
      host: b.host,
      collector: { name: 'cni-doctor', version: 'live' },
      paths: { ...this.paths },
      ...(b.collectedAt !== undefined && { collectedAt: b.collectedAt }),
      ...(b.hns !== undefined && { hns: b.hns }),
      ...(b.pipes !== undefined && { pipes: b.pipes }),
      ...(b.services !== undefined && { services: b.services }),
      ...(b.processes !== undefined && { processes: b.processes }),
      ...(b.versions !== undefined && { versions: b.versions }),
    };
  }

  /** Native path → bytes of every file read so far. */
  contents(): ReadonlyMap<string, Buffer> {
    return this.files;
  }

  host(label: string): BundleHost {
    return BundleHost.fromMemory(label, this.manifest(), this.files);
  }
}
