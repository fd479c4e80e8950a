// Loads the CRI service definitions with @grpc/proto-loader, once per process.
//
// Two sources, same text (see proto-text.ts for why there are two):
// 1. the `.proto` files next to this module, found through `import.meta.url` — the case under
//    tsx/vitest and any unbundled run;
// 2. otherwise (the esbuild bundles `dist/cli.cjs` and the desktop's, both CJS, where
//    `import.meta.url` is undefined; asar archives) the embedded text, written to a private temp
//    dir for `loadSync` and removed right after. Precomputed protobufjs JSON + `fromJSON` was the
//    alternative; it would need protobufjs (not a direct dependency) to regenerate, so the text
//    copy won.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  loadSync,
  type Options,
  type PackageDefinition,
  type ServiceDefinition,
} from '@grpc/proto-loader';
import { CRI_PACKAGES, criProtoFileName, criProtoText, type CriPackage } from './proto-text';
import { osErrorWords } from '../../../shared/os-error';

// camelCase fields; int64 as decimal strings (created_at is in nanoseconds, beyond 2^53);
// enums as their names; absent fields filled with defaults so decoders see stable shapes.
const LOADER_OPTIONS: Options = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

export type CriProtoSource = 'files' | 'embedded';

export interface CriDefinitions {
  readonly source: CriProtoSource;
  readonly packageDefinition: PackageDefinition;
  /** RuntimeService of each package, keyed by package. */
  readonly runtimeService: Readonly<Record<CriPackage, ServiceDefinition>>;
}

let cached: CriDefinitions | undefined;

export function loadCriDefinitions(): CriDefinitions {
  cached ??= loadFrom(protoDirNextToModule() ? 'files' : 'embedded');
  return cached;
}

/** Loads without the cache, from a chosen source; exported so tests can force the bundle path. */
export function loadFrom(source: CriProtoSource): CriDefinitions {
  if (source === 'files') {
    const dir = protoDirNextToModule();
    if (!dir) throw new Error('CRI .proto files are not next to the module');
    return build(
      source,
      loadSync(
        CRI_PACKAGES.map((p) => join(dir, criProtoFileName(p))),
        LOADER_OPTIONS,
      ),
    );
  }
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), 'cni-doctor-cri-proto-'));
  } catch (e) {
    // A newcomer running as another user got the raw "EACCES: …, mkdtemp '…-XXXXXX'".
    throw new Error(
      `cannot ask the runtime over CRI: the CRI API definitions are written to a temporary folder first, and ${tmpdir()} is not usable (${osErrorWords(e) ?? (e as Error).message}); set TMPDIR to a folder this user can write`,
      { cause: e },
    );
  }
  try {
    const files = CRI_PACKAGES.map((p) => {
      const file = join(dir, criProtoFileName(p));
      writeFileSync(file, criProtoText(p));
      return file;
    });
    return build(source, loadSync(files, LOADER_OPTIONS));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function protoDirNextToModule(): string | undefined {
  // In an esbuild CJS bundle `import.meta` is an empty object, so `url` is undefined.
  const url: unknown = import.meta.url;
  if (typeof url !== 'string' || !url.startsWith('file:')) return undefined;
  const dir = dirname(fileURLToPath(url));
  return CRI_PACKAGES.every((p) => existsSync(join(dir, criProtoFileName(p)))) ? dir : undefined;
}

function build(source: CriProtoSource, packageDefinition: PackageDefinition): CriDefinitions {
  const service = (pkg: CriPackage): ServiceDefinition => {
    const def = packageDefinition[`${pkg}.RuntimeService`];
    if (!def || 'format' in def)
      throw new Error(`${pkg}.RuntimeService missing from the CRI proto`);
    return def as ServiceDefinition;
  };
  return {
    source,
    packageDefinition,
    runtimeService: {
      'runtime.v1': service('runtime.v1'),
      'runtime.v1alpha2': service('runtime.v1alpha2'),
    },
  };
}
