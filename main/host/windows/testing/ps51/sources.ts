/**
 * Every piece of PowerShell cni-doctor runs on a node or hands to Windows PowerShell:
 * - the scripts sent to nodes (main/host/windows/scripts/*.ps1, not *.Tests.ps1);
 * - PowerShell built in TypeScript at runtime: string and template literals in main/, app/ and
 *   shared/ (not tests, not testing/ helpers, not the generated *-ps1.ts copies), `[...].join(sep)`
 *   arrays of them, with `${CONST}` replaced by that constant's text (other `${…}` by 1: numbers,
 *   paths or base64 there), identifiers naming such constants and `c ? A : B` taken both ways;
 *   kept when the text carries a PowerShell marker and parses without error.
 * A text whose line says `# cni-doctor: PowerShell 7 only` runs only in pwsh (remoting-shell.ts
 * guarantees it) and is held to PowerShell 7.6's command table instead.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface PsSource {
  label: string;
  text: string;
  origin: 'ps1' | 'ts';
  target: '5.1' | '7';
}

export const PS7_ONLY_MARK = '# cni-doctor: PowerShell 7 only';

const PS_MARKER =
  /\[Console\]::|\$ErrorActionPreference|ConvertFrom-Json|ConvertTo-Json|\[Text\.Encoding\]|\[IO\.|\[System\.|\$env:|\bGet-(Service|Acl|Item|ChildItem|Process|Content|CimInstance|Hns\w+)\b|Start-Process|Invoke-Command|New-PSSession|\[ScriptBlock\]::|\$global:|\$PID\b|Security\.Principal|Remove-PSSession|Add-Type|\$ExecutionContext/;

function walk(dir: string, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === 'node_modules' || name === 'testing' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx|mts)$/.test(name) && !/\.test\.tsx?$/.test(name) && !/-ps1\.ts$/.test(name))
      out.push(p);
  }
}

const MAX_VARIANTS = 8;

function variants(
  node: ts.Node,
  consts: Map<string, ts.Expression>,
  depth = 0,
): string[] | undefined {
  if (depth > 6) return undefined;
  if (ts.isParenthesizedExpression(node)) return variants(node.expression, consts, depth + 1);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isIdentifier(node)) {
    const init = consts.get(node.text);
    return init ? variants(init, consts, depth + 1) : undefined;
  }
  if (ts.isConditionalExpression(node)) {
    const a = variants(node.whenTrue, consts, depth + 1);
    const b = variants(node.whenFalse, consts, depth + 1);
    return a && b ? [...a, ...b].slice(0, MAX_VARIANTS) : undefined;
  }
  if (ts.isTemplateExpression(node)) {
    let acc = [node.head.text];
    for (const span of node.templateSpans) {
      const inner = ts.isIdentifier(span.expression)
        ? variants(span.expression, consts, depth + 1)
        : undefined;
      const parts = inner ?? ['1'];
      acc = acc.flatMap((a) => parts.map((p) => a + p + span.literal.text)).slice(0, MAX_VARIANTS);
    }
    return acc;
  }
  if (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    node.expression.name.text === 'join' &&
    ts.isArrayLiteralExpression(node.expression.expression)
  ) {
    const sepNode = node.arguments[0];
    const sep = sepNode === undefined ? [','] : variants(sepNode, consts, depth + 1);
    if (!sep || sep.length !== 1) return undefined;
    let acc = [''];
    let first = true;
    for (const el of node.expression.expression.elements) {
      const v = variants(el, consts, depth + 1);
      if (!v) return undefined;
      acc = acc
        .flatMap((a) => v.map((x) => (first ? x : a + (sep[0] ?? '') + x)))
        .slice(0, MAX_VARIANTS);
      first = false;
    }
    return acc;
  }
  return undefined;
}

function tsSources(root: string): PsSource[] {
  const files: string[] = [];
  for (const d of ['main', 'app', 'shared']) walk(join(root, d), files);
  const parsed = files.map(
    (f) =>
      [f, ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true)] as const,
  );
  const consts = new Map<string, ts.Expression>();
  for (const [, sf] of parsed) {
    const visit = (n: ts.Node): void => {
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer)
        consts.set(n.name.text, n.initializer);
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  const out: PsSource[] = [];
  for (const [file, sf] of parsed) {
    const visit = (n: ts.Node): void => {
      const v =
        ts.isStringLiteral(n) ||
        ts.isNoSubstitutionTemplateLiteral(n) ||
        ts.isTemplateExpression(n) ||
        ts.isCallExpression(n)
          ? variants(n, consts)
          : undefined;
      if (v) {
        const line = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
        for (const text of v) {
          if (text.length < 8 || !PS_MARKER.test(text)) continue;
          out.push({
            label: `${relative(root, file)}:${line}`,
            text,
            origin: 'ts',
            target: text.includes(PS7_ONLY_MARK) ? '7' : '5.1',
          });
        }
      }
      if (!ts.isCallExpression(n) || !v) ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

export function projectSources(root: string): PsSource[] {
  const dir = join(root, 'main', 'host', 'windows', 'scripts');
  const ps1 = readdirSync(dir)
    .filter((f) => /\.ps1$/i.test(f) && !/\.Tests\.ps1$/i.test(f))
    .sort()
    .map((f): PsSource => ({
      label: relative(root, join(dir, f)),
      text: readFileSync(join(dir, f), 'utf8').replace(/^\uFEFF/, ''),
      origin: 'ps1',
      target: '5.1',
    }));
  const seen = new Set<string>();
  return [...ps1, ...tsSources(root)].filter((s) => {
    const key = `${s.target}\0${s.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
