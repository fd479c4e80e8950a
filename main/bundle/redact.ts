/**
 * Removes secrets before a bundle leaves the node: `redactFile` for every collected file (see
 * redaction/index.ts: by key path in JSON/TOML/YAML, by line pattern in free text),
 * `redactArgs` for process command lines and `redactCommandLine` for a command line kept as one
 * string. All three use the line patterns of redaction/text.ts. Every redaction is listed in the
 * bundle manifest.
 */
import { applyEdits } from './redaction/edits';
import { REDACTED, isSecretFlag } from './redaction/secret-keys';
import { freeTextEdits } from './redaction/text';

export { looksBinary, redactFile, type Redaction } from './redaction';
import type { Redaction } from './redaction';

/**
 * Redact secrets in a process's arguments: a secret flag's value as the next argument
 * (`--token`, `X`), and every line pattern inside each argument (`--token=X`,
 * `--etcd-endpoints=https://u:pw@h`, `AWS_SECRET_ACCESS_KEY=X` after `env`).
 */
export function redactArgs(
  name: string,
  args: readonly string[],
): { args: string[]; redactions: Redaction[] } {
  const redactions: Redaction[] = [];
  const out = args.map((a, i) => {
    const prev = args[i - 1] ?? '';
    if (isSecretFlag(prev) && a !== '' && a !== REDACTED) {
      redactions.push({ path: `process:${name}`, what: `value of ${prev}` });
      return REDACTED;
    }
    const r = redactText(a);
    for (const what of r.whats) redactions.push({ path: `process:${name}`, what });
    return r.text;
  });
  return { args: out, redactions };
}

/** One string through the free-text line patterns; what each hidden value was. */
export function redactText(text: string): { text: string; whats: string[] } {
  const edits = freeTextEdits(text);
  if (edits.length === 0) return { text, whats: [] };
  const out = applyEdits(text, edits);
  return { text: out.text, whats: out.applied.map((e) => e.what) };
}

/**
 * Redact secrets in a command line kept as one string (a Windows service's ImagePath or nssm
 * AppParameters): `--token=…`, `--token …`, PowerShell's `-Token …`, `/password:…`, quoted
 * values included, and every other line pattern. `where` names it in the manifest's
 * `redactions`.
 */
export function redactCommandLine(
  where: string,
  line: string,
): { line: string; redactions: Redaction[] } {
  const r = redactText(line);
  return { line: r.text, redactions: r.whats.map((what) => ({ path: where, what })) };
}
