/** Command-line flag parsing in the Go `flag`/pflag style the node components use. */

/** Value of `--name=value`, `--name value`, `-n value` (first occurrence wins unless `last`). */
export function flagValue(
  args: readonly string[],
  names: readonly string[],
  last = true,
): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    for (const n of names) {
      if (a === n && i + 1 < args.length) found = args[i + 1];
      else if (a.startsWith(`${n}=`)) found = a.slice(n.length + 1);
      else continue;
      if (!last) return found;
    }
  }
  return found;
}

/** Split a shell-ish argument string (`KUBELET_KUBEADM_ARGS="--a=b --c"`), honouring quotes. */
export function splitArgs(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: '"' | "'" | null = null;
  let has = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < s.length) cur += s[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (/\s/.test(c)) {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has || cur) out.push(cur);
  return out;
}

/** `KEY=value` / `KEY="value"` lines of an env file, with their line numbers. */
export function parseEnvFile(text: string): { key: string; value: string; line: number }[] {
  const out: { key: string; value: string; line: number }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(raw);
    if (!m) return;
    let v = (m[2] ?? '').trim();
    if ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")))
      v = v.slice(1, -1);
    out.push({ key: m[1] as string, value: v, line: i + 1 });
  });
  return out;
}
