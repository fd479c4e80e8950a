/**
 * Validation of every request before the engine sees it, shared by the IPC handlers and the HTTP
 * server. Payloads are strict (unknown keys are errors), ids must match the exact formats in
 * shared/api.ts ID_PATTERNS, and keys that could pollute prototypes are refused wherever they sit.
 */
import { EXPLAIN_MAX_CHARS } from '../../shared/api-explain';
import { CREDENTIAL_LIMITS, CREDENTIAL_REQUEST_ID } from '../../shared/api-credential';
import { z } from 'zod';
import { ID_PATTERNS, type Operation, type ScanRequest } from '../../shared/api';
import { VIEW_LIMITS } from '../../shared/api-viewers';
import { INVENTORY_LIMITS, INVENTORY_TABS, type InventoryTab } from '../../shared/api-inventory';
import { ApiError } from './errors';
import { REQUEST_LIMITS } from './limits';

const id = (name: keyof typeof ID_PATTERNS) =>
  z.string().max(256).regex(ID_PATTERNS[name], `${name} has an invalid format`);

const none = z.union([z.undefined(), z.null(), z.strictObject({})]).transform(() => undefined);

const scanRequest: z.ZodType<ScanRequest> = z.discriminatedUnion('source', [
  z.strictObject({ source: z.literal('live') }),
  z.strictObject({ source: z.literal('bundle'), bundleId: id('bundleId') }),
  z.strictObject({ source: z.literal('demo'), demoId: id('demoId') }),
  z.strictObject({ source: z.literal('target'), targetId: id('targetId') }),
]);

/** Bytes from IPC arrive as an ArrayBuffer (structured clone), from HTTP as a Buffer. */
const bytes = z
  .custom<ArrayBuffer | Uint8Array>(
    (v) => v instanceof ArrayBuffer || v instanceof Uint8Array,
    'data must be bytes',
  )
  .transform((v) => (v instanceof Uint8Array ? v : new Uint8Array(v)))
  .refine((v) => v.byteLength > 0, 'the file is empty')
  .refine(
    (v) => v.byteLength <= REQUEST_LIMITS.maxUploadBytes,
    `the file is larger than ${REQUEST_LIMITS.maxUploadBytes} bytes`,
  );

/** Display only: never joined to a path. No separators, no control characters. */
const fileName = z
  .string()
  .min(1)
  .max(255)
  .refine(
    (s) =>
      !/[\\/]/.test(s) && ![...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
    'fileName must be a plain file name',
  );

const bundleUpload = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('upload'), fileName, data: bytes }),
  z.strictObject({ kind: z.literal('dialog') }),
]);

/** An operation on the node in focus: `{ source }`, or nothing (this machine). */
const onNode = z.union([z.strictObject({ source: scanRequest }), none]);

const compareSide = z.union([z.strictObject({ scanId: id('scanId') }), scanRequest]);
/**
 * A node path as evidence quotes it. Only ever a key into the scan's own tables (viewers.ts),
 * never joined to a disk path; NUL (which no node path holds) is refused outright.
 */
const nodePath = z
  .string()
  .min(1)
  .max(VIEW_LIMITS.maxPathChars)
  .refine((s) => !s.includes('\u0000'), 'path must not hold NUL');
const lineNo = z.number().int().min(1).max(1_000_000_000);
const context = z.number().int().min(0).max(VIEW_LIMITS.maxLogContext);
const tabIds = INVENTORY_TABS.map((t) => t.id) as [InventoryTab, ...InventoryTab[]];
/** kubeconfig context and node names as shared/target.ts accepts them (never a flag). */
const kubeContext = z
  .string()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_.:@/+=-]{0,252}$/, 'not a context name');
const nodeName = z.string().regex(/^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/, 'not a node name');
const count = (max: number) => z.number().int().min(0).max(max);

const inventoryRequest = z.strictObject({
  scanId: id('scanId'),
  tab: z.enum(tabIds),
  table: count(16).optional(),
  offset: count(INVENTORY_LIMITS.maxOffset).optional(),
  limit: z.number().int().min(1).max(INVENTORY_LIMITS.maxRows).optional(),
  sort: z.strictObject({ column: count(64), descending: z.boolean().optional() }).optional(),
  filter: z.string().max(INVENTORY_LIMITS.maxFilterChars).optional(),
});

const hnsObjectRequest = z.strictObject({
  scanId: id('scanId'),
  kind: z.enum(['network', 'endpoint', 'namespace', 'policyList']),
  id: id('hnsId'),
});

export const REQUEST_SCHEMAS = {
  info: none,
  scan: scanRequest,
  inventory: inventoryRequest,
  hnsObject: hnsObjectRequest,
  listDemos: none,
  listBundles: none,
  listTargets: none,
  // The text is parsed (shared/target.ts) by the backend, which says what is wrong with it.
  addTarget: z.strictObject({ target: z.string().min(1).max(1024) }),
  openBundle: bundleUpload,
  exportBundle: onNode,
  // Every repair names the page's scan or node: never "whatever was scanned last".
  previewRepair: z.strictObject({ scanId: id('scanId'), repairId: id('repairId') }),
  applyRepair: z.strictObject({
    scanId: id('scanId'),
    repairId: id('repairId'),
    previewToken: id('previewToken'),
  }),
  previewUndo: z.strictObject({ entryId: id('entryId'), source: scanRequest }),
  undo: z.strictObject({ entryId: id('entryId'), source: scanRequest }),
  repairRecord: z.strictObject({ entryId: id('entryId'), source: scanRequest }),
  history: onNode,
  rules: none,
  listScans: none,
  compare: z.strictObject({ before: compareSide, after: compareSide }),
  watchStatus: z.strictObject({ scanId: id('scanId') }),
  viewFile: z.strictObject({
    scanId: id('scanId'),
    path: nodePath,
    from: lineNo.optional(),
    count: z.number().int().min(1).max(VIEW_LIMITS.maxPageLines).optional(),
    query: z.string().max(VIEW_LIMITS.maxQueryChars).optional(),
  }),
  viewLog: z.strictObject({
    scanId: id('scanId'),
    path: nodePath,
    line: lineNo,
    before: context.optional(),
    after: context.optional(),
  }),
  criRaw: z.strictObject({ scanId: id('scanId') }),
  cluster: z.strictObject({ context: kubeContext.optional() }),
  clusterScanNode: z.strictObject({ context: kubeContext.optional(), node: nodeName }),
  explain: z.strictObject({
    scanId: id('scanId'),
    text: z.string().min(1).max(EXPLAIN_MAX_CHARS),
  }),
  // The messages name the rule broken, never the value (they are logged).
  answerCredential: z.strictObject({
    requestId: z.string().max(64).regex(CREDENTIAL_REQUEST_ID, 'requestId has an invalid format'),
    password: z
      .string()
      .min(1, 'the password is empty')
      .max(CREDENTIAL_LIMITS.maxPasswordChars, 'the password is too long')
      .optional(),
  }),
} satisfies Record<Operation, z.ZodType>;

export type ValidRequest<K extends Operation> = z.output<(typeof REQUEST_SCHEMAS)[K]>;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Walks plain objects and arrays (not byte buffers) looking for pollution keys and deep nesting. */
function checkShape(v: unknown, depth: number): void {
  if (v === null || typeof v !== 'object' || v instanceof ArrayBuffer || ArrayBuffer.isView(v))
    return;
  if (depth > REQUEST_LIMITS.maxDepth)
    throw new ApiError('bad-request', 'request is nested too deeply');
  for (const key of Reflect.ownKeys(v)) {
    if (typeof key !== 'string') throw new ApiError('bad-request', 'request has a non-string key');
    if (FORBIDDEN_KEYS.has(key))
      throw new ApiError('bad-request', `request has a forbidden key "${key}"`);
    checkShape((v as Record<string, unknown>)[key], depth + 1);
  }
}

export function validateRequest<K extends Operation>(op: K, payload: unknown): ValidRequest<K> {
  const schema = REQUEST_SCHEMAS[op] as z.ZodType | undefined;
  if (!schema) throw new ApiError('not-found', 'unknown operation');
  checkShape(payload, 0);
  const r = schema.safeParse(payload);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new ApiError(
      'bad-request',
      `invalid ${op} request: ${where}${issue?.message ?? 'invalid'}`,
    );
  }
  return r.data as ValidRequest<K>;
}

/**
 * Parses a JSON request body. Refuses pollution keys even before zod sees the object, because
 * `JSON.parse('{"__proto__":{}}')` creates an own `__proto__` key that a careless spread would
 * turn into a prototype.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text, (key, value: unknown) => {
      if (FORBIDDEN_KEYS.has(key))
        throw new ApiError('bad-request', `request has a forbidden key "${key}"`);
      return value;
    });
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError('bad-request', 'request body is not valid JSON');
  }
}
