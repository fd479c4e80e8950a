/**
 * The bundle manifest (bundle-format.md, version 1) and its validation. A bundle is untrusted:
 * only `format` and `host.os` are required, unknown fields are ignored, and a field of the wrong
 * type makes that fact unknown rather than crashing. `null` for a fact the collector could not
 * obtain is normal (older and other collectors write it) and reads as "not recorded". Lists and
 * maps are judged per entry: a malformed entry is dropped with a warning and the rest of its
 * section kept; only a section of the wrong shape altogether is dropped whole. A wrong-typed
 * required field rejects the bundle.
 */
import {
  arrayOf,
  boolean,
  type Check,
  either,
  int,
  lenientList,
  lenientMap,
  literal,
  map,
  nullable,
  nonNegative,
  object,
  oneOf,
  opt,
  optional,
  orElse,
  orNull,
  record,
  string,
  text,
  withDefault,
} from './manifest-check';

export const BUNDLE_FORMAT = 'cni-doctor.bundle/v1';

export interface ManifestPathEntry {
  type: 'file' | 'dir' | 'socket' | 'symlink' | 'missing' | 'other';
  entries?: string[] | undefined;
  target?: string | undefined;
  error?: string | undefined;
  truncated?: boolean | undefined;
  size?: number | undefined;
  /** Extension: the file had an execute bit (CNI plugin binaries). */
  executable?: boolean | undefined;
  /** Extension: last modification time (ISO 8601), to tell log lines older than a change. */
  mtime?: string | undefined;
}

const pathEntry: Check<ManifestPathEntry> = object({
  type: oneOf(['file', 'dir', 'socket', 'symlink', 'missing', 'other']),
  entries: opt(arrayOf(string)),
  target: opt(string),
  error: opt(string),
  truncated: opt(boolean),
  size: opt(nonNegative),
  executable: opt(boolean),
  mtime: opt(string),
});

/** A string map whose non-string values (null: not obtained) are left out. */
const stringMap: Check<Record<string, string>> = map(record, (m) =>
  Object.fromEntries(
    Object.entries(m).filter((e): e is [string, string] => typeof e[1] === 'string'),
  ),
);

const criCondition = object({ type: string, status: boolean, reason: text, message: text });

const criEntry = object({
  endpoint: string,
  api: orElse(orNull(oneOf(['runtime.v1', 'runtime.v1alpha2'])), null),
  version: opt(
    object({ version: text, runtimeName: text, runtimeVersion: text, runtimeApiVersion: text }),
  ),
  status: opt(
    object({
      conditions: map(opt(lenientList(criCondition)), (c) => c ?? []),
      info: map(opt(stringMap), (i) => i ?? {}),
    }),
  ),
  sandboxes: opt(
    lenientList(
      object({
        id: string,
        name: text,
        namespace: text,
        state: text,
        createdAt: opt(string),
      }),
    ),
  ),
  containerdVersion: opt(object({ version: text, revision: text })),
  error: orNull(object({ code: int, message: text })),
});

const pluginVersion = either(
  object({ ok: literal(true), cniVersion: string, supportedVersions: arrayOf(string) }),
  object({
    ok: literal(false),
    problem: oneOf(['not-executable', 'wrong-architecture', 'crashed', 'bad-output', 'timeout']),
    message: text,
  }),
);

const hnsList = withDefault(lenientList(record), () => []);

const serviceLaunch = object({
  imagePath: opt(string),
  imagePathError: opt(string),
  nssm: orElse(
    opt(
      object({
        application: string,
        parameters: opt(string),
        directory: opt(string),
        stderr: opt(string),
      }),
    ),
    undefined,
  ),
  nssmError: opt(string),
});

const sections = {
  collectedAt: string,
  collector: object({ name: optional(string), version: optional(string) }),
  paths: lenientMap(pathEntry),
  pipes: lenientList(string),
  processes: lenientList(
    object({
      name: string,
      pid: opt(int),
      args: map(opt(arrayOf(string)), (a) => a ?? []),
    }),
  ),
  services: lenientList(
    object({
      name: string,
      state: orElse(oneOf(['running', 'stopped', 'failed', 'missing', 'unknown']), 'unknown'),
      /** Extension (Windows): the service's registry launch values; malformed reads as absent. */
      launch: orElse(opt(serviceLaunch), undefined),
    }),
  ),
  versions: stringMap,
  cri: lenientList(criEntry),
  hns: object({
    networks: hnsList,
    endpoints: hnsList,
    namespaces: hnsList,
    policyLists: hnsList,
    error: optional(nullable(string)),
    source: optional(string),
  }),
  /** Extension: CNI_COMMAND=VERSION answers of plugin binaries, by node path. */
  pluginVersions: lenientMap(pluginVersion),
  logs: lenientList(object({ source: string, path: string })),
  redactions: lenientList(object({ path: string, what: string })),
} as const;

export interface ManifestHost {
  os: 'linux' | 'windows';
  hostname?: string | undefined;
  osVersion?: string | undefined;
  elevated?: boolean | undefined;
}

const hostSchema: Check<ManifestHost> = object({
  os: oneOf(['linux', 'windows']),
  hostname: orElse(optional(string), undefined),
  osVersion: orElse(optional(string), undefined),
  elevated: orElse(optional(boolean), undefined),
});

type Sections = {
  [K in keyof typeof sections]?: (typeof sections)[K] extends Check<infer T> ? T : never;
};
export type BundleManifest = {
  format: typeof BUNDLE_FORMAT;
  host: ManifestHost;
} & Sections;

export type ManifestParse =
  { ok: true; manifest: BundleManifest; warnings: string[] } | { ok: false; error: string };

export function parseManifest(text: string): ManifestParse {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `manifest.json is not valid JSON: ${(e as Error).message}` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, error: 'manifest.json must hold a JSON object' };
  }
  const obj = raw as Record<string, unknown>;
  if (obj.format !== BUNDLE_FORMAT) {
    return {
      ok: false,
      error: `manifest.json: format must be "${BUNDLE_FORMAT}", got ${JSON.stringify(obj.format)?.slice(0, 60)}`,
    };
  }
  const host = hostSchema(obj.host);
  if (!host.ok) return { ok: false, error: 'manifest.json: host.os must be "linux" or "windows"' };

  const manifest: BundleManifest = { format: BUNDLE_FORMAT, host: host.value };
  const warnings: string[] = [];
  for (const key of Object.keys(sections) as (keyof typeof sections)[]) {
    // null: the collector could not obtain the section; the same as leaving it out.
    if (obj[key] === undefined || obj[key] === null) continue;
    const parsed = (sections[key] as Check<unknown>)(obj[key]);
    // Every entry malformed: nothing of the section is usable, so its facts stay unknown.
    const allDropped =
      parsed.ok && countOf(obj[key]) > 0 && countOf(parsed.value) === 0 && key !== 'hns';
    if (parsed.ok && !allDropped) {
      (manifest as Record<string, unknown>)[key] = parsed.value;
      const dropped = countOf(obj[key]) - countOf(parsed.value);
      if (dropped > 0)
        warnings.push(
          `manifest.json: ${dropped} malformed ${dropped === 1 ? 'entry' : 'entries'} of "${key}" dropped; the rest of the section is used`,
        );
    } else {
      // A malformed section makes its facts unknown; the rest of the bundle stays usable.
      const why = parsed.ok ? 'no entry is well-formed' : parsed.message;
      warnings.push(`manifest.json: section "${key}" ignored (${why})`);
    }
  }
  return { ok: true, manifest, warnings };
}

/** Items of a list section, or keys of a map section (paths): what per-entry parsing may drop. */
function countOf(v: unknown): number {
  // A null value is a fact not obtained, not a malformed entry.
  if (Array.isArray(v)) return v.filter((x) => x !== null).length;
  if (typeof v === 'object' && v !== null) return Object.values(v).filter((x) => x !== null).length;
  return 0;
}
