/**
 * The bundle manifest's validation as it was written with zod (before start-up cost moved it to
 * the hand-written manifest-check.ts): the reference that manifest.test.ts holds the fast parser
 * to, input by input, so the two cannot drift apart.
 */
import { z } from 'zod';

/** An optional field that may also be `null` (a fact the collector could not obtain). */
const opt = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null ? undefined : v), schema.optional());

/** A list whose malformed items are dropped, so one bad item does not cost its siblings. */
const lenientList = <T extends z.ZodType>(item: T) =>
  z.array(z.unknown()).transform((xs) =>
    xs.flatMap((x) => {
      const r = item.safeParse(x);
      return r.success ? [r.data as z.output<T>] : [];
    }),
  );

/** A string map whose non-string values (null: not obtained) are left out. */
const stringMap = z
  .record(z.string(), z.unknown())
  .transform((m) =>
    Object.fromEntries(
      Object.entries(m).filter((e): e is [string, string] => typeof e[1] === 'string'),
    ),
  );

export const BUNDLE_FORMAT = 'cni-doctor.bundle/v1';

const pathEntry = z.object({
  type: z.enum(['file', 'dir', 'socket', 'symlink', 'missing', 'other']),
  entries: opt(z.array(z.string())),
  target: opt(z.string()),
  error: opt(z.string()),
  truncated: opt(z.boolean()),
  size: opt(z.number().nonnegative()),
  /** Extension: the file had an execute bit (CNI plugin binaries). */
  executable: opt(z.boolean()),
  /** Extension: last modification time (ISO 8601), to tell log lines older than a change. */
  mtime: opt(z.string()),
});
export type ManifestPathEntry = z.infer<typeof pathEntry>;

const text = z.preprocess((v) => (v === null ? undefined : v), z.string().default(''));

const criCondition = z.object({
  type: z.string(),
  status: z.boolean(),
  reason: text,
  message: text,
});

const criEntry = z.object({
  endpoint: z.string(),
  api: z.enum(['runtime.v1', 'runtime.v1alpha2']).nullable().default(null).catch(null),
  version: opt(
    z.object({
      version: text,
      runtimeName: text,
      runtimeVersion: text,
      runtimeApiVersion: text,
    }),
  ),
  status: opt(
    z.object({
      conditions: opt(lenientList(criCondition)).transform((c) => c ?? []),
      info: opt(stringMap).transform((i) => i ?? {}),
    }),
  ),
  sandboxes: opt(
    lenientList(
      z.object({
        id: z.string(),
        name: text,
        namespace: text,
        state: text,
        createdAt: opt(z.string()),
      }),
    ),
  ),
  containerdVersion: opt(z.object({ version: text, revision: text })),
  error: z.object({ code: z.number().int(), message: text }).nullable().default(null),
});

const pluginVersion = z.union([
  z.object({
    ok: z.literal(true),
    cniVersion: z.string(),
    supportedVersions: z.array(z.string()),
  }),
  z.object({
    ok: z.literal(false),
    problem: z.enum(['not-executable', 'wrong-architecture', 'crashed', 'bad-output', 'timeout']),
    message: text,
  }),
]);

const serviceLaunch = z.object({
  imagePath: opt(z.string()),
  imagePathError: opt(z.string()),
  nssm: opt(
    z.object({
      application: z.string(),
      parameters: opt(z.string()),
      directory: opt(z.string()),
      stderr: opt(z.string()),
    }),
  ).catch(undefined),
  nssmError: opt(z.string()),
});

const sections = {
  collectedAt: z.string(),
  collector: z.object({ name: z.string().optional(), version: z.string().optional() }),
  paths: z.record(z.string(), z.unknown()).transform((m) => {
    const out: Record<string, z.output<typeof pathEntry>> = {};
    for (const [k, v] of Object.entries(m)) {
      const r = pathEntry.safeParse(v);
      if (r.success) out[k] = r.data;
    }
    return out;
  }),
  pipes: lenientList(z.string()),
  processes: lenientList(
    z.object({
      name: z.string(),
      pid: opt(z.number().int()),
      args: opt(z.array(z.string())).transform((a) => a ?? []),
    }),
  ),
  services: lenientList(
    z.object({
      name: z.string(),
      state: z.enum(['running', 'stopped', 'failed', 'missing', 'unknown']).catch('unknown'),
      launch: opt(serviceLaunch).catch(undefined),
    }),
  ),
  versions: stringMap,
  cri: lenientList(criEntry),
  hns: z.object({
    networks: lenientList(z.record(z.string(), z.unknown())).default([]),
    endpoints: lenientList(z.record(z.string(), z.unknown())).default([]),
    namespaces: lenientList(z.record(z.string(), z.unknown())).default([]),
    policyLists: lenientList(z.record(z.string(), z.unknown())).default([]),
    error: z.string().nullable().optional(),
    source: z.string().optional(),
  }),
  /** Extension: CNI_COMMAND=VERSION answers of plugin binaries, by node path. */
  pluginVersions: z.record(z.string(), z.unknown()).transform((m) => {
    const out: Record<string, z.output<typeof pluginVersion>> = {};
    for (const [k, v] of Object.entries(m)) {
      const r = pluginVersion.safeParse(v);
      if (r.success) out[k] = r.data;
    }
    return out;
  }),
  logs: lenientList(z.object({ source: z.string(), path: z.string() })),
  redactions: lenientList(z.object({ path: z.string(), what: z.string() })),
} as const;

const hostSchema = z.object({
  os: z.enum(['linux', 'windows']),
  hostname: z.string().optional().catch(undefined),
  osVersion: z.string().optional().catch(undefined),
  elevated: z.boolean().optional().catch(undefined),
});

type Sections = { [K in keyof typeof sections]?: z.infer<(typeof sections)[K]> };
export type BundleManifest = {
  format: typeof BUNDLE_FORMAT;
  host: z.infer<typeof hostSchema>;
} & Sections;

export type ManifestParse =
  { ok: true; manifest: BundleManifest; warnings: string[] } | { ok: false; error: string };

export function parseManifestWithZod(text: string): ManifestParse {
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
  const host = hostSchema.safeParse(obj.host);
  if (!host.success)
    return { ok: false, error: 'manifest.json: host.os must be "linux" or "windows"' };

  const manifest: BundleManifest = { format: BUNDLE_FORMAT, host: host.data };
  const warnings: string[] = [];
  for (const key of Object.keys(sections) as (keyof typeof sections)[]) {
    // null: the collector could not obtain the section; the same as leaving it out.
    if (obj[key] === undefined || obj[key] === null) continue;
    const parsed = sections[key].safeParse(obj[key]);
    // Every entry malformed: nothing of the section is usable, so its facts stay unknown.
    const allDropped =
      parsed.success && countOf(obj[key]) > 0 && countOf(parsed.data) === 0 && key !== 'hns';
    if (parsed.success && !allDropped) {
      (manifest as Record<string, unknown>)[key] = parsed.data;
      const dropped = countOf(obj[key]) - countOf(parsed.data);
      if (dropped > 0)
        warnings.push(
          `manifest.json: ${dropped} malformed ${dropped === 1 ? 'entry' : 'entries'} of "${key}" dropped; the rest of the section is used`,
        );
    } else {
      // A malformed section makes its facts unknown; the rest of the bundle stays usable.
      const why = parsed.success
        ? 'no entry is well-formed'
        : (parsed.error.issues[0]?.message ?? 'wrong type');
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
