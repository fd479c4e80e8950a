/**
 * PowerShell syntax checking for tests, with web-tree-sitter and the tree-sitter-powershell
 * grammar (its .wasm ships in the npm package): a syntax check that needs no PowerShell. The real
 * parser's check, with the 5.1 language rules, is testing/Ps51Compat.ps1.
 */
import { createRequire } from 'node:module';
import { Language, Parser, type Node } from 'web-tree-sitter';

let parserPromise: Promise<Parser> | undefined;

export function powershellParser(): Promise<Parser> {
  parserPromise ??= (async () => {
    await Parser.init();
    const wasm = createRequire(import.meta.url).resolve(
      'tree-sitter-powershell/tree-sitter-powershell.wasm',
    );
    const parser = new Parser();
    parser.setLanguage(await Language.load(wasm));
    return parser;
  })();
  return parserPromise;
}

export interface SyntaxProblem {
  kind: 'ERROR' | 'MISSING';
  /** 1-based line and column. */
  line: number;
  column: number;
  text: string;
}

export async function parsePowerShell(
  source: string,
): Promise<{ root: Node; problems: SyntaxProblem[] }> {
  const parser = await powershellParser();
  const tree = parser.parse(source);
  if (!tree) throw new Error('tree-sitter returned no tree');
  const problems: SyntaxProblem[] = [];
  const visit = (n: Node): void => {
    if (n.type === 'ERROR' || n.isMissing) {
      problems.push({
        kind: n.isMissing ? 'MISSING' : 'ERROR',
        line: n.startPosition.row + 1,
        column: n.startPosition.column + 1,
        text: n.isMissing ? n.type : n.text.slice(0, 80),
      });
    }
    for (const c of n.children) if (c) visit(c);
  };
  visit(tree.rootNode);
  return { root: tree.rootNode, problems };
}

/** Every string literal (single, double or here-string) in the tree. */
export function stringLiterals(root: Node): Node[] {
  return root.descendantsOfType('string_literal').filter((n): n is Node => n !== null);
}
