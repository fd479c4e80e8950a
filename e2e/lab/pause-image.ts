// Builds the lab's pause image with no registry: compile pause.c statically, wrap it as a
// one-layer OCI image (layer tar, config, manifest, index) and pack the OCI layout into a tar
// that `ctr -n k8s.io images import` takes (docs/knowledge/lab.md#a-real-pod-sandbox).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mustRun } from './exec';
import { tarArchive, type TarEntry } from './tar';

export const LAB_PAUSE_IMAGE = 'localhost/cni-doctor/pause:lab';

const PAUSE_C = fileURLToPath(new URL('./pause/pause.c', import.meta.url));

interface Blob {
  mediaType: string;
  digest: string;
  size: number;
  data: Buffer;
}

function blob(mediaType: string, data: Buffer): Blob {
  return {
    mediaType,
    digest: 'sha256:' + createHash('sha256').update(data).digest('hex'),
    size: data.length,
    data,
  };
}

const descriptor = (b: Blob) => ({ mediaType: b.mediaType, digest: b.digest, size: b.size });

function ociArch(): string {
  const map: Partial<Record<NodeJS.Architecture, string>> = {
    x64: 'amd64',
    arm64: 'arm64',
    arm: 'arm',
    ppc64: 'ppc64le',
    s390x: 's390x',
  };
  return map[process.arch] ?? process.arch;
}

/** Compiles pause.c into `workDir/pause` and writes `workDir/pause-oci.tar`; returns its path. */
export async function buildPauseImage(workDir: string, ref = LAB_PAUSE_IMAGE): Promise<string> {
  const binary = join(workDir, 'pause');
  await mustRun('gcc', ['-static', '-O2', '-s', '-o', binary, PAUSE_C]);

  const layer = blob(
    'application/vnd.oci.image.layer.v1.tar',
    tarArchive([{ name: 'pause', data: readFileSync(binary), mode: 0o755 }]),
  );
  const config = blob(
    'application/vnd.oci.image.config.v1+json',
    Buffer.from(
      JSON.stringify({
        architecture: ociArch(),
        os: 'linux',
        config: { Entrypoint: ['/pause'], WorkingDir: '/' },
        rootfs: { type: 'layers', diff_ids: [layer.digest] }, // uncompressed layer: digest == diff_id
      }),
    ),
  );
  const manifest = blob(
    'application/vnd.oci.image.manifest.v1+json',
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        config: descriptor(config),
        layers: [descriptor(layer)],
      }),
    ),
  );
  const index = {
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.index.v1+json',
    manifests: [
      {
        ...descriptor(manifest),
        // containerd names the imported image after this annotation.
        annotations: {
          'io.containerd.image.name': ref,
          'org.opencontainers.image.ref.name': ref.split(':').pop() ?? 'latest',
        },
      },
    ],
  };
  const entries: TarEntry[] = [
    { name: 'oci-layout', data: Buffer.from(JSON.stringify({ imageLayoutVersion: '1.0.0' })) },
    { name: 'index.json', data: Buffer.from(JSON.stringify(index)) },
    { name: 'blobs/' },
    { name: 'blobs/sha256/' },
    ...[layer, config, manifest].map((b) => ({
      name: `blobs/sha256/${b.digest.slice('sha256:'.length)}`,
      data: b.data,
    })),
  ];
  const out = join(workDir, 'pause-oci.tar');
  writeFileSync(out, tarArchive(entries));
  return out;
}
