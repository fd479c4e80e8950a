/**
 * Removes secrets before a bundle leaves the node: `redactFile` for every collected file (see
 * redaction/index.ts: by key path in JSON/TOML/YAML, by line pattern in free text) and
 * `redactArgs` for process command lines. Every redaction is listed in the bundle manifest.
 */
import { REDACTED, SECRET_FLAG } from './redaction/secret-keys';

export { looksBinary, redactFile, type Redaction } from './redaction';
import type { Redaction } from './redaction';

const FLAG_ALONE = new RegExp(`^${SECRET_FLAG}$`, 'i');
const FLAG_WITH_VALUE = new RegExp(`^(${SECRET_FLAG}=)(.+)$`, 'i');

/** Redact secrets in a process's arguments (`--token=…`, `--token …`). */
export function redactArgs(
  name: string,
  args: readonly string[],
): { args: string[]; redactions: Redaction[] } {
  const redactions: Redaction[] = [];
  const out = args.map((a, i) => {
    const prev = args[i - 1] ?? '';
    if (FLAG_ALONE.test(prev)) {
      redactions.push({ path: `process:${name}`, what: `value of ${prev}` });
      return REDACTED;
    }
    const m = FLAG_WITH_VALUE.exec(a);
    if (m) {
      redactions.push({ path: `process:${name}`, what: `value of ${m[1]?.slice(0, -1)}` });
      return `${m[1]}${REDACTED}`;
    }
    return a;
  });
  return { args: out, redactions };
}

const IN_LINE = new RegExp(`(^|[\\s"'])(${SECRET_FLAG})(=|\\s+)("[^"]*"|'[^']*'|[^\\s"']+)`, 'gi');

/**
 * Redact secrets in a command line kept as one string (a Windows service's ImagePath or nssm
 * AppParameters): `--token=…` and `--token …`, quoted values included. `where` names it in the
 * manifest's `redactions`.
 */
export function redactCommandLine(
  where: string,
  line: string,
): { line: string; redactions: Redaction[] } {
  const redactions: Redaction[] = [];
  const out = line.replace(IN_LINE, (_m, lead: string, flag: string, sep: string) => {
    redactions.push({ path: where, what: `value of ${flag}` });
    return `${lead}${flag}${sep}${REDACTED}`;
  });
  return { line: out, redactions };
}
