/**
 * Finds secret values in a JSON document by key, at any nesting: a CNI conflist's
 * `"k8s_auth_token"`, Calico's and Multus's `"auth": {"token": …}`, a docker config's
 * `"auths": {"registry": {"auth": …}}`. Only string contents change, so the document still
 * parses. The walk is iterative: a 100k-deep document cannot overflow the stack. Beside keys: the
 * string after a secret flag in an array (`"args": ["--token", "X"]`) and the `value` of an
 * object whose `name` is a secret key (`{"name": "AWS_SECRET_ACCESS_KEY", "value": "X"}`).
 */
import { redactBody, type Edit } from './edits';
import { isSecretFlag, isSecretKey } from './secret-keys';

interface Frame {
  kind: 'object' | 'array';
  /** The key this container is the value of ('' at the top, `[]` for an array element). */
  key: string;
  expectKey: boolean;
  currentKey: string;
  /** Array: the last string was a secret flag (`["--token", "X"]`), so this one is its value. */
  afterFlag: boolean;
  /** Object: its `name` is a secret key (`{"name": "AWS_SECRET_ACCESS_KEY", "value": …}`). */
  secretName: boolean;
  /** Object: the edit hiding its `value`, kept until the object closes and its name is known. */
  pendingValue?: Edit;
}

/** Offset just past the string starting at the `"` at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 2;
    else if (c === 0x22) return i + 1;
    else i++;
  }
  return text.length;
}

function label(stack: readonly Frame[], key: string): string {
  return [...stack.slice(1).map((f) => f.key), key]
    .filter((k) => k !== '')
    .join('.')
    .replace(/\.\[\]/g, '[]');
}

/** Edits hiding every secret value, or undefined when `text` is not JSON. */
export function jsonSecretEdits(text: string): Edit[] | undefined {
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  const edits: Edit[] = [];
  const stack: Frame[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (top?.kind === 'object' && top.expectKey) {
        top.currentKey = JSON.parse(text.slice(i, end)) as string;
        top.expectKey = false;
      } else if (top !== undefined) {
        const key = top.kind === 'object' ? top.currentKey : top.key;
        const raw = text.slice(i + 1, end - 1);
        const body = redactBody(raw);
        const edit =
          body === undefined
            ? undefined
            : {
                start: i + 1,
                end: end - 1,
                text: body,
                what: `JSON value of "${label(stack, top.kind === 'object' ? key : '[]')}"`,
              };
        if (edit && (isSecretKey(key) || (top.kind === 'array' && top.afterFlag))) edits.push(edit);
        else if (top.kind === 'object' && key === 'value') top.pendingValue = edit;
        if (top.kind === 'object' && key === 'name')
          top.secretName = isSecretKey(JSON.parse(text.slice(i, end)) as string);
        if (top.kind === 'array')
          top.afterFlag = isSecretFlag(JSON.parse(text.slice(i, end)) as string);
      }
      i = end;
      continue;
    }
    if (c === '{' || c === '[') {
      const key = top === undefined ? '' : top.kind === 'object' ? top.currentKey : '[]';
      if (top?.kind === 'array') top.afterFlag = false;
      stack.push({
        kind: c === '{' ? 'object' : 'array',
        key,
        expectKey: c === '{',
        currentKey: '',
        afterFlag: false,
        secretName: false,
      });
    } else if (c === '}' || c === ']') {
      const closed = stack.pop();
      if (closed?.secretName && closed.pendingValue) edits.push(closed.pendingValue);
    } else if (top?.kind === 'array' && !/\s|,/.test(c ?? '')) {
      top.afterFlag = false; // a number, `true`, `null` between a flag and the next string
    } else if (c === ',' && top?.kind === 'object') {
      top.expectKey = true;
    }
    i++;
  }
  return edits;
}
