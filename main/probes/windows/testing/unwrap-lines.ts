/**
 * Undo console wrapping in copied PowerShell output (docs/knowledge/windows-hns.md#getting-json-out-reliably: "wraps long lines mid-word
 * at console width"). Two kinds of break occur in the samples (INFERRED from them):
 * - a hard wrap at the console width, which loses nothing: `LastUpdateTim` + `e`;
 * - a word wrap before the width, which swallowed the space it broke at:
 *   `"Microsoft Windows` + `Filtering Platform"`.
 * So a line exactly as wide as the widest wrapped line joins directly, a shorter one joins with a
 * space, and a break right after a `;`/`,` separator always gets its space back.
 */
export interface PhysicalLine {
  /** The text to keep (indentation already removed where it is layout). */
  text: string;
  /** The line's full width on screen, indentation included. */
  width: number;
}

export function joinWrapped(lines: readonly PhysicalLine[], consoleWidth: number): string {
  let out = lines[0]?.text ?? '';
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1];
    const next = lines[i]?.text ?? '';
    const hard = prev !== undefined && prev.width >= consoleWidth && !/[;,]$/.test(prev.text);
    out += hard ? next : ` ${next}`;
  }
  return out;
}

/** The width the console wrapped at: the widest line that a continuation follows. */
export function wrapWidth(groups: readonly (readonly PhysicalLine[])[]): number {
  let width = 0;
  for (const g of groups)
    for (let i = 0; i < g.length - 1; i++) width = Math.max(width, g[i]?.width ?? 0);
  return width;
}

export function physical(line: string, trim: boolean): PhysicalLine {
  return { text: trim ? line.trim() : line, width: line.length };
}
