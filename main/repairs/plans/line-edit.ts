/**
 * Minimal line edits for the non-TOML files repairs touch (crictl.yaml, kubelet env files and
 * systemd drop-ins, KubeletConfiguration): only the value or the flag changes, every other byte
 * of the file stays as it was. Results use the TOML editor's result shape so steps treat all
 * edits alike.
 */
import type { TomlEditResult } from '../../config/toml';

/** A YAML scalar for an endpoint: plain when safe, else a JSON (= YAML double-quoted) string. */
export function yamlScalar(v: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9:/._\\-]*$/.test(v) ? v : JSON.stringify(v);
}

/** Set a top-level `key: value` line; appends the line when the key is absent. */
export function setYamlTopLevel(text: string, key: string, value: string): TomlEditResult {
  const re = new RegExp(
    `^(${key.replace(/[-.]/g, '\\$&')}[ \\t]*:[ \\t]*)([^#\\r\\n]*?)([ \\t]*(?:#[^\\r\\n]*)?)$`,
    'gm',
  );
  const hits = [...text.matchAll(re)];
  if (hits.length > 1) return { ok: false, reason: `${key} is set ${hits.length} times` };
  if (hits.length === 0) {
    const sep = text === '' || text.endsWith('\n') ? '' : '\n';
    return { ok: true, text: `${text}${sep}${key}: ${yamlScalar(value)}\n` };
  }
  const h = hits[0] as RegExpMatchArray;
  const start = (h.index ?? 0) + (h[1] as string).length;
  return {
    ok: true,
    text: text.slice(0, start) + yamlScalar(value) + text.slice(start + (h[2] as string).length),
  };
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replace the value of `--name=value` / `--name value` on one line (1-based). */
export function setFlagOnLine(
  text: string,
  line: number,
  name: string,
  value: string,
): TomlEditResult {
  const lines = text.split('\n');
  const raw = lines[line - 1];
  if (raw === undefined) return { ok: false, reason: `line ${line} does not exist` };
  const re = new RegExp(`(--${escapeRe(name)}(?:=|[ \\t]+))([^\\s"']+)`);
  const m = re.exec(raw);
  if (!m) return { ok: false, reason: `--${name} is not on line ${line}` };
  lines[line - 1] =
    raw.slice(0, m.index + (m[1] as string).length) + value + raw.slice(m.index + m[0].length);
  return { ok: true, text: lines.join('\n') };
}

/**
 * Remove `--name=value`, `--name value` (when `value` is known to follow) or `--name` from one
 * line, together with one adjoining run of blanks.
 */
export function removeFlagOnLine(
  text: string,
  line: number,
  name: string,
  value: string | undefined,
): TomlEditResult {
  const lines = text.split('\n');
  const raw = lines[line - 1];
  if (raw === undefined) return { ok: false, reason: `line ${line} does not exist` };
  const n = escapeRe(name);
  const forms = [
    `--${n}=[^\\s"']*`,
    ...(value !== undefined ? [`--${n}[ \\t]+${escapeRe(value)}(?=[\\s"']|$)`] : []),
    `--${n}(?=[\\s"']|$)`,
  ];
  for (const form of forms) {
    const before = new RegExp(`[ \\t]+${form}`).exec(raw);
    const m = before ?? new RegExp(`${form}[ \\t]*`).exec(raw);
    if (!m) continue;
    lines[line - 1] = raw.slice(0, m.index) + raw.slice(m.index + m[0].length);
    return { ok: true, text: lines.join('\n') };
  }
  return { ok: false, reason: `--${name} is not on line ${line}` };
}
