/**
 * Removes secrets before a bundle leaves the node: registry credentials in containerd / CRI-O
 * configs, and tokens, passwords and private keys in any collected file or command line. Each
 * redaction keeps the line count and the file's syntax (a quoted value stays quoted), so line
 * numbers in findings are the same on the node and in the bundle.
 */
export interface Redaction {
  path: string;
  what: string;
}

interface LineRule {
  what: string;
  re: RegExp;
  replace: (m: RegExpExecArray) => string;
}

const REDACTED = 'REDACTED';

/** `key = "value"` / `key: value` / `key=value` with a secret-sounding key. */
const SECRET_KEYS =
  '(password|passwd|auth|identitytoken|identity_token|token|bearer_token|secret|client-key-data|client_key_data|private[_-]?key|api[_-]?key|apikey|access[_-]?key|secret[_-]?key)';

const LINE_RULES: LineRule[] = [
  {
    what: 'credential value',
    // TOML / INI: key = "..." or key = '...'
    re: new RegExp(`^(\\s*"?${SECRET_KEYS}"?\\s*=\\s*)(["'])(.*)\\3(\\s*(#.*)?)$`, 'i'),
    replace: (m) => `${m[1]}${m[3]}${REDACTED}${m[3]}${m[5] ?? ''}`,
  },
  {
    what: 'credential value',
    // YAML / JSON: key: value, "key": "value"
    re: new RegExp(
      `^(\\s*-?\\s*"?${SECRET_KEYS}"?\\s*:\\s*)("?)([^"\\s,][^",]*?)("?)(,?\\s*)$`,
      'i',
    ),
    replace: (m) => `${m[1]}${m[3]}${REDACTED}${m[5]}${m[6] ?? ''}`,
  },
  {
    what: 'token in a command-line flag',
    re: /(--(?:token|bootstrap-token|password|client-key|kube-api-token)[= ])(\S+)/gi,
    replace: (m) => `${m[1]}${REDACTED}`,
  },
  {
    what: 'bearer token',
    re: /(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g,
    replace: (m) => `${m[1]}${REDACTED}`,
  },
];

const KEY_BLOCK = /-----BEGIN ([A-Z ]*PRIVATE KEY)-----[\s\S]*?-----END \1-----/g;

export function redactText(path: string, text: string): { text: string; redactions: Redaction[] } {
  const redactions: Redaction[] = [];
  let out = text.replace(KEY_BLOCK, (block, kind: string) => {
    redactions.push({ path, what: kind.toLowerCase() });
    // Keep the line count: every line of the key becomes a marker line.
    return block
      .split('\n')
      .map((_l, i, all) =>
        i === 0
          ? `-----BEGIN ${kind}-----`
          : i === all.length - 1
            ? `-----END ${kind}-----`
            : REDACTED,
      )
      .join('\n');
  });
  const lines = out.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i] as string;
    for (const rule of LINE_RULES) {
      if (rule.re.global) {
        rule.re.lastIndex = 0;
        let changed = false;
        line = line.replace(rule.re, (...args: unknown[]) => {
          changed = true;
          const m = args.slice(0, -2) as unknown as RegExpExecArray;
          return rule.replace(m);
        });
        if (changed) redactions.push({ path, what: `${rule.what} (line ${i + 1})` });
        continue;
      }
      const m = rule.re.exec(line);
      if (m && m[4] !== REDACTED && m[4] !== '') {
        line = rule.replace(m);
        redactions.push({ path, what: `${rule.what} (line ${i + 1})` });
      }
    }
    lines[i] = line;
  }
  out = lines.join('\n');
  return { text: out, redactions };
}

/** Redact secrets in a process's arguments (e.g. `--token=…`). */
export function redactArgs(
  name: string,
  args: readonly string[],
): { args: string[]; redactions: Redaction[] } {
  const redactions: Redaction[] = [];
  const out = args.map((a, i) => {
    const prev = args[i - 1] ?? '';
    if (/^--(token|bootstrap-token|password|kube-api-token)$/i.test(prev)) {
      redactions.push({ path: `process:${name}`, what: `value of ${prev}` });
      return REDACTED;
    }
    const m = /^(--(?:token|bootstrap-token|password|kube-api-token)=)(.+)$/i.exec(a);
    if (m) {
      redactions.push({ path: `process:${name}`, what: `value of ${m[1]?.slice(0, -1)}` });
      return `${m[1]}${REDACTED}`;
    }
    return a;
  });
  return { args: out, redactions };
}

/** Binary files are not redacted line by line; they are kept only if they hold no key block. */
export function looksBinary(data: Buffer): boolean {
  const n = Math.min(data.length, 8192);
  for (let i = 0; i < n; i++) if (data[i] === 0) return true;
  return false;
}
