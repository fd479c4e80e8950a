/**
 * Line diff (Myers, O((N+M)·D)) and unified-diff output for previews. Repairs change a few lines
 * of a file, so D is tiny; the common prefix and suffix are trimmed first, which makes the usual
 * case linear.
 */

export type DiffOp = { op: 'equal' | 'delete' | 'insert'; line: string };

/** Lines with their terminators kept, so a missing final newline shows up as a change. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  return text.split(/(?<=\n)/);
}

export function diffLines(a: readonly string[], b: readonly string[]): DiffOp[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head: DiffOp[] = a.slice(0, start).map((line) => ({ op: 'equal', line }));
  const tail: DiffOp[] = a.slice(endA).map((line) => ({ op: 'equal', line }));
  return [...head, ...myers(a.slice(start, endA), b.slice(start, endB)), ...tail];
}

function myers(a: readonly string[], b: readonly string[]): DiffOp[] {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((line) => ({ op: 'insert', line }));
  if (m === 0) return a.map((line) => ({ op: 'delete', line }));
  const max = n + m;
  const offset = max;
  let v = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number)))
        x = v[offset + k + 1] as number;
      else x = (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
    v = next;
  }
  trace.push(v);
  // Walk the trace backwards to recover the edit script.
  const ops: DiffOp[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 2; d > 0; d--) {
    const vd = trace[d] as Int32Array;
    const k = x - y;
    const prevK =
      k === -d || (k !== d && (vd[offset + k - 1] as number) < (vd[offset + k + 1] as number))
        ? k + 1
        : k - 1;
    const prevX = vd[offset + prevK] as number;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ op: 'equal', line: a[x] as string });
    }
    if (x === prevX) ops.push({ op: 'insert', line: b[--y] as string });
    else ops.push({ op: 'delete', line: a[--x] as string });
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    ops.push({ op: 'equal', line: a[x] as string });
  }
  while (y > 0) ops.push({ op: 'insert', line: b[--y] as string });
  while (x > 0) ops.push({ op: 'delete', line: a[--x] as string });
  return ops.reverse();
}

const NO_NEWLINE = '\\ No newline at end of file\n';

function emit(prefix: string, line: string): string {
  return line.endsWith('\n') ? `${prefix}${line}` : `${prefix}${line}\n${NO_NEWLINE}`;
}

/**
 * Unified diff of two texts. `before === null` is a new file (`--- /dev/null`). Returns '' when
 * the texts are equal.
 */
export function unifiedDiff(
  path: string,
  before: string | null,
  after: string,
  context = 3,
): string {
  const a = splitLines(before ?? '');
  const b = splitLines(after);
  const ops = diffLines(a, b);
  if (ops.every((o) => o.op === 'equal')) return '';
  const header = `--- ${before === null ? '/dev/null' : `a${path}`}\n+++ b${path}\n`;
  // Group changes into hunks with `context` equal lines around them.
  const hunks: string[] = [];
  let i = 0;
  let lineA = 1;
  let lineB = 1;
  const pos: { a: number; b: number }[] = ops.map((o) => {
    const p = { a: lineA, b: lineB };
    if (o.op !== 'insert') lineA++;
    if (o.op !== 'delete') lineB++;
    return p;
  });
  while (i < ops.length) {
    while (i < ops.length && ops[i]?.op === 'equal') i++;
    if (i >= ops.length) break;
    const start = Math.max(0, i - context);
    let end = i;
    // Extend while the next change is within 2*context equal lines.
    for (;;) {
      while (end < ops.length && ops[end]?.op !== 'equal') end++;
      let eq = end;
      while (eq < ops.length && ops[eq]?.op === 'equal') eq++;
      if (eq < ops.length && eq - end <= 2 * context) {
        end = eq;
        continue;
      }
      end = Math.min(ops.length, end + context);
      break;
    }
    const slice = ops.slice(start, end);
    const first = pos[start] as { a: number; b: number };
    const countA = slice.filter((o) => o.op !== 'insert').length;
    const countB = slice.filter((o) => o.op !== 'delete').length;
    const startA = countA === 0 ? first.a - 1 : first.a;
    const startB = countB === 0 ? first.b - 1 : first.b;
    let body = `@@ -${startA},${countA} +${startB},${countB} @@\n`;
    for (const o of slice)
      body += emit(o.op === 'equal' ? ' ' : o.op === 'delete' ? '-' : '+', o.line);
    hunks.push(body);
    i = end;
  }
  return header + hunks.join('');
}
