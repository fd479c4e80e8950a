/**
 * Which keys hold secrets, by name, whatever the format and the quoting: `token`,
 * `k8s_auth_token`, `k8s-api-token`, `identitytoken`, `password`, `client-key-data`,
 * `client_secret`, containerd's registry `auth` … Names are compared without case, `-`, `_`
 * and `.`, so every spelling of one key is one rule.
 */
const EXACT: ReadonlySet<string> = new Set([
  'auth',
  'authorization',
  'pass',
  'passwd',
  'password',
  'secret',
  'token',
  'credentials',
  'privatekey',
  'clientkeydata',
  'keydata',
]);

/** A key ending in one of these is a secret too (`k8sapitoken`, `registrypassword`, …). */
const SUFFIXES = [
  'token',
  'password',
  'passwd',
  'secret',
  'keydata',
  'privatekey',
  'apikey',
  'secretkey',
  'accesskey',
];

export function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[-_.\s]/g, '');
}

export function isSecretKey(key: string): boolean {
  const k = normalizeKey(key);
  return EXACT.has(k) || SUFFIXES.some((s) => k.endsWith(s));
}

/** Flags whose value is a secret on a command line (`--token=…`, `--password …`). */
export const SECRET_FLAG =
  '--(?:token|bootstrap-token|password|client-key|client-secret|kube-api-token|k8s-api-token|api-key|secret)';

export const REDACTED = 'REDACTED';
