/** Word wrap for the text reports: at the terminal's width, so a narrow terminal never cuts words. */
export function wrapText(text: string, width: number): string[] {
  const words = text.split(/\s+/).filter((w) => w !== '');
  const lines: string[] = [];
  let cur = '';
  for (const w of words) {
    if (cur && cur.length + w.length + 1 > width) {
      lines.push(cur);
      cur = w;
    } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) lines.push(cur);
  return lines;
}

/** The width to wrap at: the terminal's columns (when a terminal), at most 100 and at least 40. */
export function textWidth(columns: number | undefined): number {
  return Math.max(40, Math.min(100, columns ?? 100));
}
