/**
 * What CommonMark would read as markup in one line once its code spans are taken out (a run of n
 * backquotes opens a span that the next run of exactly n closes): a link or image opener, an
 * autolink or HTML tag, emphasis markers, or a code span left open.
 */
export function markupOutsideCode(line: string): string[] {
  let rest = '';
  let i = 0;
  const found: string[] = [];
  while (i < line.length) {
    if (line[i] === '\\') {
      i += 2; // an escaped character is a literal
      continue;
    }
    const run = /^`+/.exec(line.slice(i))?.[0];
    if (run) {
      const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
      close.lastIndex = i + run.length;
      const m = close.exec(line);
      if (!m) {
        found.push('unclosed code span');
        break;
      }
      i = m.index + run.length;
      continue;
    }
    rest += line[i];
    i++;
  }
  for (const [name, re] of [
    ['link or image', /\]\(|!\[/],
    ['HTML or autolink', /<[A-Za-z/!?]/],
    ['emphasis', /\*\*|__/],
  ] as const)
    if (re.test(rest)) found.push(name);
  return found;
}
