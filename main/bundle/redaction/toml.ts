/**
 * Finds secret values in a TOML document by key path: table headers (`[…registry.configs."x".auth]`
 * then `password = …`), dotted keys (`auth.password = …`), quoted keys (`"token" = …`),
 * inline tables (`auth = { password = … }`, nested), arrays (of strings, of inline tables),
 * arrays of tables and all four string kinds (multi-line ones keep their line count). Only
 * string contents change, so the document still parses; the caller checks that it does.
 */
import { parseTOML, traverseNodes, type AST } from 'toml-eslint-parser';
import { parserView, parseToml } from '../../config/toml';
import { redactBody, type Edit } from './edits';
import { isSecretKey } from './secret-keys';

function segments(key: AST.TOMLKey): string[] {
  return key.keys.map((k) => (k.type === 'TOMLBare' ? k.name : k.value));
}

/** The key path a value sits at: its table's header, inline tables around it, its own key. */
function keyPath(node: AST.TOMLNode): string[] {
  const parts: string[][] = [];
  for (let n: AST.TOMLNode | null = node.parent; n; n = n.parent)
    if (n.type === 'TOMLKeyValue' || n.type === 'TOMLTable') parts.unshift(segments(n.key));
  return parts.flat();
}

/** Edits hiding every secret value, or undefined when `text` is not TOML. */
export function tomlSecretEdits(text: string): Edit[] | undefined {
  if (!parseToml(text).ok) return undefined;
  // As parseToml reads it (a BOM blanked, comment lines emptied); offsets are taken back.
  const view = parserView(text);
  const ast = parseTOML(view.text, { tomlVersion: '1.0.0' });
  const edits: Edit[] = [];
  traverseNodes(ast, {
    enterNode(node) {
      if (node.type !== 'TOMLValue' || node.kind !== 'string') return;
      const path = keyPath(node);
      if (!isSecretKey(path[path.length - 1] ?? '')) return;
      const open = node.multiline ? 3 : 1;
      const start = view.toOriginal(node.range[0]) + open;
      const end = view.toOriginal(node.range[1]) - open;
      const body = redactBody(text.slice(start, end));
      if (body !== undefined)
        edits.push({ start, end, text: body, what: `TOML value of ${path.join('.')}` });
    },
    leaveNode() {},
  });
  return edits;
}
