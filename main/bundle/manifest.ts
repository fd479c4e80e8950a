/**
 * The bundle manifest (bundle-format.md, version 1) and its validation. A bundle is untrusted:
 * only `format` and `host.os` are required, unknown fields are ignored, and a field of the wrong
 * type makes that fact unknown rather than crashing (a wrong-typed optional section is dropped
 * with a warning; a wrong-typed required field rejects the bundle).
 */
import { z } from 'zod';

export const BUNDLE_FORMAT = 'cni-doctor.bundle/v1';

const pathEntry = z.object({
  type: z.enum(['file', 'dir', 'socket', 'symlink', 'missing', 'other']),
  entries: z.array(z.string()).optional(),
  target: z.string().optional(),
  error: z.string().optional(),
  truncated: z.boolean().optional(),
  size: z.number().nonnegative().optional(),
  /** Extension: the file had an execute bit (CNI plugin binaries). */
  executable: z.boolean().optional(),
});
export type ManifestPathEntry = z.infer<typeof pathEntry>;

const criCondition = z.object({
  type: z.string(),
  status: z.boolean(),
  reason: z.string().default(''),
  message: z.string().default(''),
});

const criEntry = z.object({
  endpoint: z.string(),
  api: z.enum(['runtime.v1', 'runtime.v1alpha2']).nullable().default(null),
  version: z
    .object({
      version: z.string().default(''),
      runtimeName: z.string().default(''),
      runtimeVersion: z.string().default(''),
      runtimeApiVersion: z.string().default(''),
    })
    .optional(),
  status: z
    .object({
      conditions: z.array(criCondition).default([]),
      info: z.record(z.string(), z.string()).default({}),
    })
    .optional(),
  sandboxes: z
    .array(
      z.object({
        id: z.string(),
        name: z.string().default(''),
        namespace: z.string().default(''),
        state: z.string().default(''),
        createdAt: z.string().optional(),
      }),
    )
    .optional(),
  error: z.object({ code: z.number().int(), message: z.string() }).nullable().default(null),
});

const sections = {
  collectedAt: z.string(),
  collector: z.object({ name: z.string().optional(), version: z.string().optional() }),
  paths: z.record(z.string(), pathEntry),
  pipes: z.array(z.string()),
  processes: z.array(
    z.object({
      name: z.string(),
      pid: z.number().int().optional(),
      args: z.array(z.string()).default([]),
    }),
  ),
  services: z.array(
    z.object({
      name: z.string(),
      state: z.enum(['running', 'stopped', 'failed', 'missing', 'unknown']).catch('unknown'),
    }),
  ),
  versions: z.record(z.string(), z.string()),
  cri: z.array(criEntry),
  hns: z.object({
    networks: z.array(z.record(z.string(), z.unknown())).default([]),
    endpoints: z.array(z.record(z.string(), z.unknown())).default([]),
    namespaces: z.array(z.record(z.string(), z.unknown())).default([]),
    policyLists: z.array(z.record(z.string(), z.unknown())).default([]),
    error: z.string().nullable().optional(),
    source: z.string().optional(),
  }),
  logs: z.array(z.object({ source: z.string(), path: z.string() })),
  redactions: z.array(z.object({ path: z.string(), what: z.string() })),
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
  const host = hostSchema.safeParse(obj.host);
  if (!host.success)
    return { ok: false, error: 'manifest.json: host.os must be "linux" or "windows"' };

  const manifest: BundleManifest = { format: BUNDLE_FORMAT, host: host.data };
  const warnings: string[] = [];
  for (const key of Object.keys(sections) as (keyof typeof sections)[]) {
    if (obj[key] === undefined) continue;
    const parsed = sections[key].safeParse(obj[key]);
    if (parsed.success) {
      (manifest as Record<string, unknown>)[key] = parsed.data;
    } else {
      // A malformed section makes its facts unknown; the rest of the bundle stays usable.
      warnings.push(
        `manifest.json: section "${key}" ignored (${parsed.error.issues[0]?.message ?? 'wrong type'})`,
      );
    }
  }
  return { ok: true, manifest, warnings };
}
