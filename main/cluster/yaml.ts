/**
 * Plain data → YAML for the manifests `daemonset --print` writes: maps, lists, strings, numbers,
 * booleans. Every string is double-quoted JSON (valid YAML), so nothing in a value can change
 * the structure.
 */
type Yamlable =
  string | number | boolean | null | readonly Yamlable[] | { readonly [k: string]: Yamlable };

const KEY = /^[A-Za-z0-9_./-]+$/;
const key = (k: string): string => (KEY.test(k) ? k : JSON.stringify(k));

function scalar(v: string | number | boolean | null): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

function isEmpty(v: Yamlable): boolean {
  return (
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0)
  );
}

function emit(v: Yamlable, indent: string): string[] {
  if (Array.isArray(v)) {
    const out: string[] = [];
    for (const item of v as readonly Yamlable[]) {
      if (typeof item === 'object' && item !== null && !isEmpty(item)) {
        const [first = '', ...rest] = emit(item, indent + '  ');
        out.push(`${indent}- ${first.trimStart()}`, ...rest);
      } else
        out.push(
          `${indent}- ${isEmpty(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item as string)}`,
        );
    }
    return out;
  }
  if (typeof v === 'object' && v !== null) {
    const out: string[] = [];
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'object' && x !== null && !isEmpty(x))
        out.push(`${indent}${key(k)}:`, ...emit(x, Array.isArray(x) ? indent : indent + '  '));
      else
        out.push(
          `${indent}${key(k)}: ${isEmpty(x) ? (Array.isArray(x) ? '[]' : '{}') : scalar(x as string)}`,
        );
    }
    return out;
  }
  return [`${indent}${scalar(v)}`];
}

export function toYaml(docs: readonly Yamlable[]): string {
  return docs.map((d) => emit(d, '').join('\n')).join('\n---\n') + '\n';
}

export type { Yamlable };
