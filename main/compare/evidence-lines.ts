/**
 * Evidence items as comparable keys and one-line descriptions, so a changed finding can say what
 * evidence appeared or went away ("/etc/cni/net.d/10-a.conflist: line 4 …") without shipping
 * both evidence lists whole.
 */
import type { Evidence } from '../../shared/model/finding';

/** Stable text of a value: object keys sorted, so equal evidence gives equal keys. */
export function stableKey(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableKey).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableKey(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

const MAX_LINE = 240;
const cut = (s: string): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > MAX_LINE ? `${one.slice(0, MAX_LINE - 1)}…` : one;
};

/** One line saying what an evidence item shows. */
export function describeEvidence(e: Evidence): string {
  switch (e.kind) {
    case 'file': {
      const marked = e.lines.filter((l) => l.highlight);
      const shown = marked.length > 0 ? marked : e.lines.slice(0, 1);
      const lines = shown.map((l) => `line ${l.line}: ${l.text}`).join('; ');
      return cut(`${e.path}${lines ? ` — ${lines}` : ''}${e.note ? ` (${e.note})` : ''}`);
    }
    case 'conf-dir':
      return cut(
        `${e.path} (${e.runtime}): ${e.entries.map((x) => `${x.name} ${x.role}`).join(', ') || 'empty'}`,
      );
    case 'cri':
      return cut(`${e.endpoint} ${e.field} = ${e.value}`);
    case 'hns':
      return cut(`HNS ${e.objectType} ${e.id}${e.name ? ` "${e.name}"` : ''}: ${e.detail}`);
    case 'log':
      return cut(`${e.path}:${e.line} ${e.text}`);
    case 'process':
      return cut(
        `process ${e.name}${e.pid !== undefined ? ` (${e.pid})` : ''} ${e.args.join(' ')}`,
      );
    case 'registry':
      return cut(`${e.key} ${e.value} = ${e.data}`);
    case 'path':
      return cut(`${e.path}: ${e.state}${e.note ? ` (${e.note})` : ''}`);
    case 'text':
      return cut(e.text);
  }
}
