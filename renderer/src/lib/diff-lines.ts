/** Splits a unified diff into typed lines for colouring (added, removed, hunk header, context). */
export type DiffLineKind = 'add' | 'del' | 'hunk' | 'meta' | 'ctx';

export function classifyDiff(diff: string): { kind: DiffLineKind; text: string }[] {
  return diff
    .replace(/\n$/, '')
    .split('\n')
    .map((text) => {
      if (
        text.startsWith('+++') ||
        text.startsWith('---') ||
        text.startsWith('diff ') ||
        text.startsWith('\\')
      )
        return { kind: 'meta' as const, text };
      if (text.startsWith('@@')) return { kind: 'hunk' as const, text };
      if (text.startsWith('+')) return { kind: 'add' as const, text };
      if (text.startsWith('-')) return { kind: 'del' as const, text };
      return { kind: 'ctx' as const, text };
    });
}
