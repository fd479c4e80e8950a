/**
 * Finds secret values in YAML (kubeconfigs: `token`, `client-key-data`, `password`,
 * auth-provider `id-token`/`refresh-token`; crictl.yaml; kubelet config) by key at any nesting,
 * block or flow style, plain, quoted or block scalars. Each value keeps its quoting and its
 * line count. Every document of a multi-document stream is walked. Beside keys: the item after a
 * secret flag in a list (kubeconfig exec `args: ["--token", X]`) and the `value` of a name/value
 * pair whose name is a secret key (exec `env`, a pod's environment).
 */
import { isMap, isPair, isScalar, isSeq, parseAllDocuments, Scalar } from 'yaml';
import { redactBody, type Edit } from './edits';
import { isSecretFlag, isSecretKey } from './secret-keys';

const MAX_DEPTH = 256;

function scalarEdit(text: string, node: Scalar, path: string): Edit | undefined {
  const range = node.range;
  if (!range) return undefined;
  const [start, end] = range;
  const src = text.slice(start, end);
  let open = 0;
  let close = 0;
  if (node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE) {
    open = 1;
    close = 1;
  } else if (node.type === Scalar.BLOCK_LITERAL || node.type === Scalar.BLOCK_FOLDED) {
    // Keep the `|`/`>` header line (indicators, a comment).
    open = src.indexOf('\n') + 1;
    if (open === 0) return undefined;
  }
  const body = redactBody(src.slice(open, src.length - close));
  if (body === undefined) return undefined;
  return { start: start + open, end: end - close, text: body, what: `YAML value of ${path}` };
}

/** Edits hiding every secret value, or undefined when `text` is not a YAML map or list. */
export function yamlSecretEdits(text: string): Edit[] | undefined {
  const docs = parseAllDocuments(text, { uniqueKeys: false });
  if (!Array.isArray(docs) || docs.length === 0) return undefined;
  if (docs.some((d) => d.errors.length > 0)) return undefined;
  if (!docs.some((d) => isMap(d.contents) || isSeq(d.contents))) return undefined;
  const edits: Edit[] = [];
  const walk = (node: unknown, path: string[], secret: boolean, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (isScalar(node)) {
      if (secret) {
        const e = scalarEdit(text, node, path.join('.'));
        if (e) edits.push(e);
      }
      return;
    }
    if (isSeq(node)) {
      // `args: [--token, X]`: the item after a secret flag is its value.
      let afterFlag = false;
      for (const item of node.items) {
        walk(item, path, secret || afterFlag, depth + 1);
        afterFlag = isScalar(item) && isSecretFlag(String(item.value));
      }
      return;
    }
    if (isMap(node)) {
      // `env: [{name: AWS_SECRET_ACCESS_KEY, value: X}]`: the value of a secret-named pair.
      const name = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === 'name');
      const named = isPair(name) && isScalar(name.value) && isSecretKey(String(name.value.value));
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        walk(pair.value, [...path, key], isSecretKey(key) || (named && key === 'value'), depth + 1);
      }
    }
  };
  for (const d of docs) walk(d.contents, [], false, 0);
  return edits;
}

/** Whether `text` parses as YAML without errors (used to check a redaction kept the syntax). */
export function yamlParses(text: string): boolean {
  return parseAllDocuments(text).every((d) => d.errors.length === 0);
}
