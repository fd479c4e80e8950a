/**
 * Unified diffs for repair previews, computed by jsdiff (`diff` on npm). Only the header is ours:
 * `--- a/<path>` / `+++ b/<path>` (`/dev/null` for a new file), as `git diff` writes it, without
 * jsdiff's `Index:` banner and tab-separated file headers.
 */
import { structuredPatch } from 'diff';
import { visible } from '../../shared/visible-text';

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
  const old = before ?? '';
  if (old === after) return '';
  const patch = structuredPatch(`a${path}`, `b${path}`, old, after, '', '', { context });
  // The header is one line per side whatever the file is called: a line break in a node's file
  // name would forge diff lines in the preview an admin approves.
  const shownPath = visible(path);
  const header = `--- ${before === null ? '/dev/null' : `a${shownPath}`}\n+++ b${shownPath}\n`;
  const hunks = patch.hunks.map((h) => {
    // An empty side starts before line 1 (`-0,0`), as diff(1) writes it.
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    return `@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@\n${h.lines.join('\n')}\n`;
  });
  return header + hunks.join('');
}
