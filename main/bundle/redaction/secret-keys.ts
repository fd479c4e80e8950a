/**
 * Which keys hold secrets, by name, whatever the format and the quoting: `token`,
 * `k8s_auth_token`, `k8s-api-token`, `identitytoken`, `password`, `client-key-data`,
 * `client_secret`, containerd's registry `auth`, `AWS_SECRET_ACCESS_KEY`, `ANTREA_IPSEC_PSK` …
 * Names are compared without case, `-`, `_` and `.`, so every spelling of one key is one rule.
 * This one predicate serves the structured walks (JSON, TOML, YAML) and the free-text patterns
 * (`KEY=value`, `"key": value`, `key: value`, URL query parameters) alike.
 */
const EXACT: ReadonlySet<string> = new Set([
  'auth',
  'pass',
  'passwd',
  'password',
  'secret',
  'token',
  'credentials',
  'privatekey',
  'clientkeydata',
  'keydata',
  'psk',
  // An inline etcd client key (Calico's `etcd_key` beside `etcd_key_file`, `ETCD_KEY=`).
  'etcdkey',
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
  'credentials',
  // `REGISTRY_AUTH`, `X-Registry-Auth`, `basic_auth`, `Proxy-Authorization`.
  'auth',
  'authorization',
  // IPsec pre-shared keys (`ANTREA_IPSEC_PSK`, `ipsecPSK`, `preSharedKey`).
  'psk',
  'presharedkey',
];

export function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[-_.\s]/g, '');
}

/**
 * Words one of which the normalized form (normalizeKey) of every key isSecretKey accepts holds.
 * A line whose normalized form holds none of them has no such key in it: the free-text patterns
 * that only keep a secret key (text.ts) need not run on it.
 */
export const SECRET_KEY_WORDS: readonly string[] = [...EXACT, ...SUFFIXES];

export function isSecretKey(key: string): boolean {
  const k = normalizeKey(key);
  return EXACT.has(k) || SUFFIXES.some((s) => k.endsWith(s));
}

/**
 * An HTTP authorization header (`Authorization`, `Proxy-Authorization`): its value is a scheme
 * and credentials (`Basic dXNlcjpwdw==`); the free-text path hides the credentials and keeps the
 * scheme, whatever the scheme is.
 */
export function isAuthorizationKey(key: string): boolean {
  return normalizeKey(key).endsWith('authorization');
}

/**
 * URL query parameters that carry a secret beside those isSecretKey names (`?token=`,
 * `access_token=`, `X-Amz-Security-Token=`): request signatures of pre-signed URLs, which let
 * anyone holding the URL make the request (AWS SigV4 `X-Amz-Signature`, Azure SAS `sig`,
 * Google `X-Goog-Signature`).
 */
const QUERY_SIGNATURES: ReadonlySet<string> = new Set([
  'sig',
  'signature',
  'xamzsignature',
  'xgoogsignature',
]);

/** The same for isSecretQueryParam. */
export const SECRET_QUERY_WORDS: readonly string[] = [...SECRET_KEY_WORDS, ...QUERY_SIGNATURES];

export function isSecretQueryParam(name: string): boolean {
  return isSecretKey(name) || QUERY_SIGNATURES.has(normalizeKey(name));
}

/**
 * Endings of command-line flag names whose value is a secret: `--token`, `--bootstrap-token`,
 * `--etcd-password`, `--certificate-key` (kubeadm: decrypts the uploaded control-plane certs),
 * PowerShell's `-KubeletToken`. `-file`, `-ttl`, `-hash` endings are not among them, so
 * `--token-ttl`, `--password-file` and `--discovery-token-ca-cert-hash` keep their values.
 */
export const FLAG_ENDINGS =
  '(?:password|passwd|token|secret|api-?key|client-key|private-key|certificate-key|access-key|secret-key|psk)';

/**
 * A flag whose value is a secret, in every style a node's command lines use: GNU `--name`, Go's
 * and PowerShell's single dash `-name` (Go's flag package takes both), any prefix
 * (`--etcd-password`, `-KubeletToken`). Matched without case. Slash-style Windows switches
 * (`/password:X`, cmdkey's `/pass:X`) are SLASH_SECRET_FLAG: they take only `:`.
 */
export const SECRET_FLAG = `--?(?:[A-Za-z0-9][A-Za-z0-9_-]*?[-_]?)?${FLAG_ENDINGS}`;

export const SLASH_SECRET_FLAG = `/(?:[A-Za-z0-9][A-Za-z0-9_-]*?)?(?:pass|${FLAG_ENDINGS})`;

const FLAG_ALONE = new RegExp(`^(?:${SECRET_FLAG})$`, 'i');

/** A whole string that is a secret flag without its value (`--token` in `["--token", "X"]`). */
export function isSecretFlag(s: string): boolean {
  return FLAG_ALONE.test(s);
}

export const REDACTED = 'REDACTED';
