/**
 * The project's Windows PowerShell 5.1 compatibility check: every command, parameter (splatted
 * hashtable keys too), .NET type, constructor, static member and inferable instance member that a
 * source (sources.ts) uses, against the 5.1 reference set (data.ts), plus PowerShell 6/7-only
 * syntax and C# newer than C# 5 given to Add-Type (5.1 compiles with the .NET Framework CodeDom
 * compiler). Run by scripts/ps51-compat.test.ts.
 */
import type { Node } from 'web-tree-sitter';
import { parsePowerShell } from '../ps-parser';
import { ps51Data, type CommandInfo, type Profile } from './data';
import type { PsSource } from './sources';
import { arityFits, membersOf, resolveType, type Resolved } from './types';

export interface Ps51Report {
  findings: string[];
  inventory: {
    commands: Set<string>;
    parameters: Set<string>;
    types: Set<string>;
    members: Set<string>;
  };
  sourcesChecked: number;
}

const COMMON = [
  'Verbose',
  'Debug',
  'ErrorAction',
  'WarningAction',
  'InformationAction',
  'ErrorVariable',
  'WarningVariable',
  'InformationVariable',
  'OutVariable',
  'OutBuffer',
  'PipelineVariable',
  'WhatIf',
  'Confirm',
  'UseTransaction',
];
const COMMON_ALIASES = [
  'vb',
  'db',
  'ea',
  'wa',
  'infa',
  'ev',
  'wv',
  'iv',
  'ov',
  'ob',
  'pv',
  'wi',
  'cf',
  'usetx',
];
/** Default aliases of Windows PowerShell 5.1 for the commands they stand for. */
const ALIASES: Record<string, string> = {
  '%': 'ForEach-Object',
  foreach: 'ForEach-Object',
  '?': 'Where-Object',
  where: 'Where-Object',
  select: 'Select-Object',
  sort: 'Sort-Object',
  gci: 'Get-ChildItem',
  ls: 'Get-ChildItem',
  dir: 'Get-ChildItem',
  gi: 'Get-Item',
  gc: 'Get-Content',
  echo: 'Write-Output',
  iex: 'Invoke-Expression',
};
/** Members PowerShell gives every object (ETS and intrinsic), whatever its .NET type. */
const INTRINSIC = new Set([
  'count',
  'length',
  'foreach',
  'where',
  'psobject',
  'gettype',
  'tostring',
  'equals',
  'gethashcode',
]);
const PS7_VARIABLES =
  /^\$(PSStyle|IsWindows|IsLinux|IsMacOS|IsCoreCLR|PSNativeCommandUseErrorActionPreference)$/i;
const CSHARP_6_PLUS: [RegExp, string][] = [
  [/\$"/, 'interpolated string $"…" (C# 6)'],
  [/\w\?\.\w/, 'null-conditional ?. (C# 6)'],
  [/\bnameof\s*\(/, 'nameof (C# 6)'],
  [/\bout\s+var\b/, 'out var (C# 7)'],
  [/^\s*using\s+static\b/m, 'using static (C# 6)'],
  [/\?\?=/, '??= (C# 8)'],
  [/\{\s*get;\s*\}\s*=/, 'auto-property initialiser (C# 6)'],
  [/\)\s*=>\s*[^;{]+;\s*$/m, 'expression-bodied member (C# 6)'],
];

const named = (n: Node): Node[] => n.namedChildren.filter((c): c is Node => c !== null);
const all = (n: Node): Node[] => n.children.filter((c): c is Node => c !== null);

/** The innermost node a chain of one-child wrapper nodes stands for. */
function core(n: Node): Node {
  let cur = n;
  for (;;) {
    const kids = named(cur);
    if (kids.length !== 1 || cur.type === 'type_literal' || cur.type === 'variable') return cur;
    const only = kids[0];
    if (!only) return cur;
    cur = only;
  }
}

function descendants(root: Node, type: string): Node[] {
  return root.descendantsOfType(type).filter((n): n is Node => n !== null);
}

function typeName(lit: Node): string {
  return lit.text.replace(/^\[|\]$/g, '').trim();
}

/** Types the sources compile themselves (C# here-strings, Add-Type -Namespace N -Name T). */
function localTypes(texts: string[]): Set<string> {
  const local = new Set<string>();
  for (const t of texts) {
    for (const block of t.matchAll(/namespace\s+([\w.]+)\s*\{([\s\S]*?)\n\}/g))
      for (const m of (block[2] ?? '').matchAll(
        /public\s+(?:static\s+)?(?:class|struct|enum)\s+(\w+)/g,
      ))
        local.add(`${block[1]}.${m[1]}`);
    for (const m of t.matchAll(/-Namespace\s+'([\w.]+)'\s+-Name\s+'(\w+)'/g))
      local.add(`${m[1]}.${m[2]}`);
  }
  return local;
}

/** A TypeScript literal whose "commands" are plain words is prose (a message), not a script. */
function isProse(root: Node, commands: Record<string, CommandInfo>): boolean {
  for (const c of descendants(root, 'command')) {
    const name = c.namedChildren[0]?.text ?? '';
    if (c.namedChildren[0]?.type !== 'command_name') continue;
    if (!name.includes('-') && !ALIASES[name.toLowerCase()] && !findCommand(commands, name))
      return true;
  }
  return false;
}

export async function checkSources(sources: PsSource[]): Promise<Ps51Report> {
  const data = ps51Data();
  const globalLocal = localTypes(sources.map((s) => s.text));
  const report: Ps51Report = {
    findings: [],
    inventory: { commands: new Set(), parameters: new Set(), types: new Set(), members: new Set() },
    sourcesChecked: 0,
  };
  const queue = [...sources];
  while (queue.length > 0) {
    const s = queue.shift();
    if (!s) break;
    const { root, problems } = await parsePowerShell(s.text);
    if (problems.length > 0) {
      // A TypeScript literal that does not parse is prose or a fragment, not a script.
      if (s.origin === 'ps1')
        report.findings.push(
          `${s.label}:${problems[0]?.line ?? 0}: does not parse (${problems[0]?.text ?? ''})`,
        );
      continue;
    }
    const profile: Profile = s.target === '7' ? 'docs-7.6' : 'ws2019-ps5.1';
    if (s.origin === 'ts' && isProse(root, data.commands[profile])) continue;
    report.sourcesChecked++;
    const at = (n: Node): string =>
      `${s.label}${s.origin === 'ps1' ? `:${n.startPosition.row + 1}` : ''}`;
    const add = (n: Node, msg: string): void => void report.findings.push(`${at(n)}: ${msg}`);

    // Here-strings: PowerShell run in runspaces (checked as sources of their own) or C# for Add-Type.
    const local = new Set<string>(globalLocal);
    const loaded = new Set<string>();
    for (const h of descendants(root, 'verbatim_here_string_characters')) {
      const body = h.text.replace(/^@'\r?\n/, '').replace(/\r?\n'@$/, '');
      if (/\bnamespace\s|\[DllImport|\bpublic\s+static\b/.test(body)) {
        for (const [re, what] of CSHARP_6_PLUS)
          if (re.test(body))
            add(h, `C# for Add-Type uses ${what}; Windows PowerShell 5.1 compiles C# 5`);
        const ns = /namespace\s+([\w.]+)/.exec(body)?.[1];
        for (const m of body.matchAll(/public\s+(?:static\s+)?(?:class|struct|enum)\s+(\w+)/g))
          if (ns) local.add(`${ns}.${m[1]}`);
      } else if (s.origin === 'ps1') {
        queue.push({ ...s, label: `${at(h)} (here-string)`, text: body, origin: 'ts' });
      }
    }
    // Add-Type -Namespace N -Name T (a -MemberDefinition type).
    for (const c of descendants(root, 'command')) {
      const name = c.namedChildren[0]?.text ?? '';
      if (name.toLowerCase() !== 'add-type') continue;
      const t = c.text;
      const ns = /-Namespace\s+'([\w.]+)'/.exec(t)?.[1];
      const nm = /-Name\s+'(\w+)'/.exec(t)?.[1];
      if (ns && nm) local.add(`${ns}.${nm}`);
      const asm = /-AssemblyName\s+'?([\w.]+)/.exec(t)?.[1];
      if (asm) loaded.add(asm);
    }
    const functions = new Set(descendants(root, 'function_name').map((f) => f.text.toLowerCase()));

    // Syntax of PowerShell 6/7.
    const walk = (n: Node): void => {
      if (!n.isNamed && ['&&', '||', '??', '??=', '?.', '?['].includes(n.type))
        add(n, `${n.type} is PowerShell 7 syntax`);
      if (n.type === 'variable' && PS7_VARIABLES.test(n.text))
        add(n, `${n.text} does not exist in 5.1`);
      if (n.type === 'expandable_string_literal' && /`u\{|`e/.test(n.text))
        add(n, '`u{…} / `e escapes are PowerShell 6/7 (5.1 prints them as text)');
      for (const c of all(n)) walk(c);
    };
    walk(root);

    // Splatted hashtables: keys set as $h.Key = … or in @{ Key = … } assigned to $h.
    const splatKeys = (variable: string): string[] => {
      const keys: string[] = [];
      for (const a of descendants(root, 'assignment_expression')) {
        const left = a.namedChildren[0];
        if (!left) continue;
        const lc = core(left);
        if (
          lc.type === 'member_access' &&
          core(named(lc)[0] ?? lc).text.toLowerCase() === `$${variable}`.toLowerCase()
        )
          keys.push(lc.namedChildren[lc.namedChildren.length - 1]?.text ?? '');
        if (lc.type === 'variable' && lc.text.toLowerCase() === `$${variable}`.toLowerCase())
          for (const e of descendants(a, 'hash_entry')) keys.push(e.namedChildren[0]?.text ?? '');
      }
      return keys.filter((k) => k !== '');
    };

    // Commands and parameters.
    for (const c of descendants(root, 'command')) {
      const nameNode = c.namedChildren[0];
      if (!nameNode || nameNode.type !== 'command_name') continue;
      let name = nameNode.text;
      // tree-sitter-powershell reads a number with a type suffix (0L) as a command word.
      if (/^[0-9]/.test(name)) continue;
      if (name.includes('\\')) name = name.slice(name.lastIndexOf('\\') + 1);
      if (functions.has(name.toLowerCase())) continue;
      name = ALIASES[name.toLowerCase()] ?? name;
      const info = findCommand(data.commands[profile], name);
      report.inventory.commands.add(info ? info[0] : name);
      if (!info) {
        add(
          c,
          `${name} is not a command of ${s.target === '7' ? 'PowerShell 7.6' : 'Windows PowerShell 5.1'}`,
        );
        continue;
      }
      const [cmd, ci] = info;
      const used: string[] = [];
      const elements = c.namedChildren[1];
      for (const e of elements ? named(elements) : []) {
        if (e.type === 'command_parameter') used.push(e.text.replace(/^-/, '').replace(/:$/, ''));
        const v = core(e);
        if (v.type === 'variable' && v.text.startsWith('@'))
          used.push(...splatKeys(v.text.slice(1)));
      }
      for (const p of new Set(used)) {
        const r = matchParameter(ci, p);
        if (r === undefined)
          add(
            c,
            `${cmd} has no parameter -${p} in ${s.target === '7' ? 'PowerShell 7.6' : 'Windows PowerShell 5.1'}`,
          );
        else report.inventory.parameters.add(`${cmd} -${r}`);
      }
    }

    // Types, constructors, static and instance members.
    const varTypes = new Map<string, Resolved>();
    const scopeOf = (n: Node): string => {
      for (let p = n.parent; p; p = p.parent)
        if (p.type === 'function_statement') return String(p.startIndex);
      return 'top';
    };
    const resolve = (n: Node, name: string): Resolved | undefined => {
      const r = resolveType(name, local, loaded);
      if ('problem' in r) {
        add(n, r.problem);
        return undefined;
      }
      report.inventory.types.add(r.full);
      return r;
    };
    const memberType = (
      t: Resolved,
      member: string,
      isStatic: boolean,
      argc: number | undefined,
      n: Node,
    ): Resolved | undefined => {
      if (t.local) return undefined;
      if (!isStatic && INTRINSIC.has(member.toLowerCase())) return undefined;
      const per = membersOf(t.infos, member, isStatic);
      const label = `${t.full}${isStatic ? '::' : '.'}${member}${argc === undefined ? '' : `(${argc})`}`;
      if (member.toLowerCase() === 'new' && isStatic && argc !== undefined) {
        const ctors = t.infos.map((i) =>
          i.members.filter((m) => m[0] === 'C' && arityFits(m, argc)),
        );
        if (ctors.some((x) => x.length === 0))
          add(
            n,
            `${t.full} has no constructor taking ${argc} argument(s) in .NET Framework 4.7.2/4.8`,
          );
        else report.inventory.members.add(label);
        return t;
      }
      const ok = per.map((ms) =>
        ms.filter((m) =>
          argc === undefined ? m[0] !== 'M' || true : m[0] === 'M' && arityFits(m, argc),
        ),
      );
      if (ok.some((x) => x.length === 0)) {
        if (t.full === 'System.Object' || t.full === 'System.Management.Automation.PSObject')
          return undefined;
        add(n, `${label} does not exist in .NET Framework 4.7.2/4.8 / Windows PowerShell 5.1`);
        return undefined;
      }
      report.inventory.members.add(label);
      const ret = ok[0]?.[0]?.[3];
      if (!ret || ret === 'System.Void') return undefined;
      // Task`1[System.String] → Task`1 (generic arguments are not followed further).
      const r = resolveType(ret.replace(/\[.*$/, ''), local, loaded);
      return 'problem' in r ? undefined : r;
    };
    const exprType = (node: Node): Resolved | undefined => {
      const n = core(node);
      if (n.type === 'variable') return varTypes.get(`${scopeOf(n)}\0${n.text.toLowerCase()}`);
      if (n.type === 'expression_with_unary_operator') {
        const lit = named(n).find((k) => k.type === 'type_literal');
        if (lit && typeName(lit).toLowerCase() !== 'void')
          return resolveType(typeName(lit), local, loaded) as Resolved;
      }
      if (n.type === 'command' && /^new-object$/i.test(n.namedChildren[0]?.text ?? '')) {
        const tok = descendants(n, 'generic_token')[0];
        if (tok) {
          const r = resolveType(tok.text, local, loaded);
          return 'problem' in r ? undefined : r;
        }
      }
      if (n.type === 'member_access' || n.type === 'invokation_expression') return memberUse(n);
      return undefined;
    };
    const memberUse = (n: Node): Resolved | undefined => {
      const kids = all(n);
      const recv = kids[0];
      const op = kids.find((k) => k.type === '.' || k.type === '::');
      const mem = named(n).find((k) => k.type === 'member_name');
      if (!recv || !op || !mem || !/^[A-Za-z_]\w*$/.test(mem.text)) return undefined;
      const args = named(n).find((k) => k.type === 'argument_list');
      const argc = args
        ? descendants(args, 'argument_expression').filter((a) => a.parent?.parent?.id === args.id)
            .length
        : undefined;
      const isStatic = op.type === '::';
      const rc = core(recv);
      let t: Resolved | undefined;
      if (isStatic && rc.type === 'type_literal') t = resolve(rc, typeName(rc));
      else if (!isStatic) t = exprType(recv);
      else return undefined;
      if (!t) {
        // Unknown receiver: the string overloads .NET Core added (StringComparison arguments).
        if (
          !isStatic &&
          args &&
          /\[StringComparison\]::|\[System\.StringComparison\]::/.test(args.text) &&
          argc !== undefined
        ) {
          const str = resolveType('string', local, loaded) as Resolved;
          memberType(str, mem.text, false, argc, n);
        }
        return undefined;
      }
      return memberType(t, mem.text, isStatic, argc, n);
    };

    // Typed parameters and assignments give variables their types (per function).
    for (const p of descendants(root, 'script_parameter')) {
      const lit = descendants(p, 'type_literal')[0];
      const v = named(p).find((k) => k.type === 'variable');
      if (lit && v) {
        const r = resolve(lit, typeName(lit));
        if (r) varTypes.set(`${scopeOf(p)}\0${v.text.toLowerCase()}`, r);
      }
    }
    for (const a of descendants(root, 'assignment_expression')) {
      const left = a.namedChildren[0];
      const right = a.namedChildren[a.namedChildren.length - 1];
      if (!left || !right) continue;
      const lc = core(left);
      if (lc.type !== 'variable') continue;
      const t = exprType(right);
      if (t) varTypes.set(`${scopeOf(a)}\0${lc.text.toLowerCase()}`, t);
    }
    // Every type literal, New-Object type (with its constructor arity) and member use.
    for (const lit of descendants(root, 'type_literal')) {
      const name = typeName(lit);
      if (name.toLowerCase() === 'void' || name.toLowerCase() === 'ordered') continue;
      resolve(lit, name);
    }
    for (const c of descendants(root, 'command')) {
      if (!/^new-object$/i.test(c.namedChildren[0]?.text ?? '')) continue;
      const els = named(c.namedChildren[1] ?? c).filter((k) => k.type !== 'command_argument_sep');
      const tok = els[0];
      if (!tok || tok.type !== 'generic_token') continue;
      const t = resolve(tok, tok.text);
      // New-Object T[] n: an array of n elements, no constructor to match.
      if (tok.text.endsWith('[]')) continue;
      const rest = els.slice(1).filter((k) => k.type !== 'command_parameter');
      let argc = 0;
      if (rest.length > 0) {
        const first = core(rest[0] as Node);
        argc = first.type === 'array_literal_expression' ? named(first).length : rest.length;
        if (first.type === 'parenthesized_expression') argc = 1;
        const text = (rest[0] as Node).text;
        if (first.type !== 'parenthesized_expression' && /^[^'"(]*,/.test(text))
          argc = text.split(',').length;
      }
      if (t && !t.local) {
        const ok = t.infos.map((i) => i.members.some((m) => m[0] === 'C' && arityFits(m, argc)));
        if (ok.some((x) => !x))
          add(
            c,
            `${t.full} has no constructor taking ${argc} argument(s) in .NET Framework 4.7.2/4.8`,
          );
        else report.inventory.members.add(`${t.full}.new(${argc})`);
      }
    }
    for (const n of [
      ...descendants(root, 'invokation_expression'),
      ...descendants(root, 'member_access'),
    ])
      memberUse(n);
  }
  report.findings = [...new Set(report.findings)];
  return report;
}

function findCommand(
  table: Record<string, CommandInfo>,
  name: string,
): [string, CommandInfo] | undefined {
  const direct = table[name];
  if (direct) return [name, direct];
  const key = Object.keys(table).find((k) => k.toLowerCase() === name.toLowerCase());
  return key ? [key, table[key] as CommandInfo] : undefined;
}

/** The parameter a name (full, alias or unique prefix) means, or undefined. */
function matchParameter(ci: CommandInfo, used: string): string | undefined {
  const u = used.toLowerCase();
  const names = [...Object.keys(ci.params), ...COMMON];
  for (const n of names) if (n.toLowerCase() === u) return n;
  for (const [n, aliases] of Object.entries(ci.params))
    if (aliases.some((a) => a.toLowerCase() === u)) return n;
  if (COMMON_ALIASES.includes(u)) return used;
  const prefixed = names.filter((n) => n.toLowerCase().startsWith(u));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}
