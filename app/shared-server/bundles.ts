/**
 * Bundles the user opened in this session. An upload is written into a private temporary folder
 * (0700) under a name the server makes up; the renderer only ever learns the bundle id.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BundleInfo } from '../../shared/api';
import { BundleHost } from '../../main/host/bundle-host';
import type { BundleSource } from './backend';
import { ApiError } from './errors';
import { newBundleId } from './ids';

const MAX_BUNDLES = 20;

interface Entry {
  info: BundleInfo;
  path: string;
  /** Opened once (an archive is unpacked once); every scan of this bundle reads through it. */
  host: BundleHost;
  /** We wrote it (upload) and delete it when dropped. */
  owned: boolean;
}

export class BundleRegistry {
  private readonly entries = new Map<string, Entry>();
  private dir: string | undefined;

  constructor(private readonly tmpRoot: string = os.tmpdir()) {}

  private async uploadDir(): Promise<string> {
    this.dir ??= await fsp.mkdtemp(path.join(this.tmpRoot, 'cni-doctor-uploads-'));
    await fsp.chmod(this.dir, 0o700);
    return this.dir;
  }

  async add(source: BundleSource): Promise<BundleInfo> {
    const bundleId = newBundleId();
    let file: string;
    let name: string;
    if (source.kind === 'upload') {
      file = path.join(await this.uploadDir(), `${bundleId}.tar.gz`);
      await fsp.writeFile(file, source.data, { mode: 0o600, flag: 'wx' });
      name = source.fileName;
    } else {
      file = source.path;
      name = path.basename(source.path);
    }
    let host: BundleHost;
    try {
      host = await BundleHost.open(file);
    } catch (e) {
      if (source.kind === 'upload') await fsp.rm(file, { force: true });
      throw new ApiError(
        'bad-request',
        `not a readable bundle: ${(e as Error).message.replace(file, name)}`,
      );
    }
    const m = host.manifest;
    const info: BundleInfo = {
      bundleId,
      name,
      os: m.host.os,
      ...(m.host.hostname !== undefined && { hostname: m.host.hostname }),
      ...(m.collectedAt !== undefined && { collectedAt: m.collectedAt }),
      warnings: host.warnings,
    };
    this.entries.set(bundleId, { info, path: file, host, owned: source.kind === 'upload' });
    await this.evict();
    return info;
  }

  get(bundleId: string): Entry | undefined {
    return this.entries.get(bundleId);
  }

  list(): BundleInfo[] {
    return [...this.entries.values()].map((e) => e.info).reverse();
  }

  private async evict(): Promise<void> {
    while (this.entries.size > MAX_BUNDLES) {
      const [oldest, entry] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(oldest);
      await entry.host.close();
      if (entry.owned) await fsp.rm(entry.path, { force: true });
    }
  }

  async dispose(): Promise<void> {
    for (const e of this.entries.values()) await e.host.close();
    if (this.dir) await fsp.rm(this.dir, { recursive: true, force: true });
    this.entries.clear();
  }
}
