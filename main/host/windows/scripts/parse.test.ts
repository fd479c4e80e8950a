/**
 * Syntax gate for every PowerShell script the tool ships, and for the exact text the collection
 * sends to the shell, with tree-sitter-powershell: any ERROR or MISSING node fails with its
 * location. It needs no PowerShell; ps51-compat.Tests.ps1 adds the real PowerShell parser and the
 * Windows PowerShell 5.1 language check (run in pwsh by pester.test.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parsePowerShell, stringLiterals } from '../testing/ps-parser';
import {
  buildCollectScript,
  collectTemplate,
  PAYLOAD_LINE_PREFIX,
  PAYLOAD_LINE_SUFFIX,
} from '../build-script';
import { defaultCollectInput, type CollectInput } from '../collect-input';
import { fromShellCommand, toShellCommand } from '../shell-command';
import { SESSION_INIT_SCRIPT } from '../session-init';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

function ps1Files(dir: string): string[] {
  let out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (name === 'node_modules') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(ps1Files(p));
    else if (name.toLowerCase().endsWith('.ps1')) out.push(p);
  }
  return out;
}

async function expectClean(label: string, source: string): Promise<void> {
  const { problems } = await parsePowerShell(source);
  const where = problems.map(
    (p) => `${label}:${p.line}:${p.column} ${p.kind} ${JSON.stringify(p.text)}`,
  );
  expect(where, where.join('\n')).toEqual([]);
}

const files = [...ps1Files(join(REPO, 'main')), ...ps1Files(join(REPO, 'app'))];

describe('every .ps1 under main/ and app/ parses', () => {
  it('finds the scripts (at least collect.ps1)', () => {
    expect(files.map((f) => relative(REPO, f))).toContain(
      join('main', 'host', 'windows', 'scripts', 'collect.ps1'),
    );
  });

  it.each(files.map((f) => [relative(REPO, f), f]))('%s', async (_rel, file) => {
    await expectClean(relative(REPO, file), readFileSync(file, 'utf8'));
  });

  it('the checker itself catches broken scripts (not a vacuous pass)', async () => {
    expect((await parsePowerShell("$x = 'never closed")).problems.length).toBeGreaterThan(0);
    expect((await parsePowerShell('if ($a) { Write-Output 1')).problems.length).toBeGreaterThan(0);
  });

  it('the session init script parses', async () => {
    await expectClean('session-init', SESSION_INIT_SCRIPT);
  });
});

const HOSTILE = [
  "C:\\k\\it's.conf",
  'C:\\k\\say "hi".conf',
  'C:\\k\\back`tick`$x.conf',
  'C:\\k\\$(Remove-Item x).conf',
  'C:\\k\\a; Remove-Item -Recurse x ;.conf',
  'C:\\k\\new\nline\r\n.conf',
  'C:\\k\\ünïcødé ☃ 筛选平台 🚀.conf',
  "C:\\k\\'); Stop-Computer; ('",
  'C:\\k\\@"\nhere\n"@.conf',
];

function hostileInput(): CollectInput {
  return defaultCollectInput({
    paths: HOSTILE,
    dirs: ['C:\\etc\\cni\\net.d', "C:\\k\\$(whoami)'"],
    services: ['kubelet', "svc'); Remove-Item x; ('", 'svc"$(Remove-Item x)"'],
    processNames: ['kubelet.exe', 'evil`n$(Remove-Item x).exe'],
  });
}

describe('the exact collection text handed to the shell', () => {
  it('parses without error nodes, with a hostile payload', async () => {
    const script = buildCollectScript(collectTemplate(), hostileInput());
    await expectClean('built collect script', script);
  });

  it('holds the payload only inside one single-quoted base64 literal', async () => {
    const input = hostileInput();
    const script = buildCollectScript(collectTemplate(), input);
    const firstLine = script.slice(0, script.indexOf('\n'));
    expect(firstLine.startsWith(PAYLOAD_LINE_PREFIX)).toBe(true);
    expect(firstLine.endsWith(PAYLOAD_LINE_SUFFIX)).toBe(true);
    const b64 = firstLine.slice(PAYLOAD_LINE_PREFIX.length, -PAYLOAD_LINE_SUFFIX.length);
    expect(b64).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);

    // The parser sees exactly one literal on that line, and it is the base64 text.
    const { root } = await parsePowerShell(firstLine);
    const literals = stringLiterals(root).map((n) => n.text);
    expect(literals).toEqual([`'${b64}'`]);

    // Decoding it gives back the payload, unchanged.
    expect(JSON.parse(Buffer.from(b64, 'base64').toString('utf8'))).toEqual(input);

    // No hostile value appears anywhere in the text outside that literal.
    const rest = script.replace(b64, '');
    for (const v of [...input.paths, ...input.dirs, ...input.services, ...input.processNames]) {
      if (v === 'kubelet' || v === 'kubelet.exe' || v === 'C:\\etc\\cni\\net.d') continue;
      expect(rest.includes(v), `found ${JSON.stringify(v)} outside the literal`).toBe(false);
    }
    expect(rest).not.toMatch(/Remove-Item x|Stop-Computer|whoami/);
  });

  it('travels as one ASCII line with one literal that decodes to the script', async () => {
    const script = buildCollectScript(collectTemplate(), hostileInput());
    const line = toShellCommand(script);
    expect(line).not.toMatch(/[\r\n]/);
    expect(line).toMatch(/^[\x20-\x7e]+$/);
    const { root, problems } = await parsePowerShell(line);
    expect(problems).toEqual([]);
    const literals = stringLiterals(root);
    expect(literals).toHaveLength(1);
    expect(fromShellCommand(line)).toBe(script);
  });

  it('refuses paths the script must not open', async () => {
    const template = collectTemplate();
    for (const bad of [
      '\\\\.\\pipe\\containerd-containerd',
      '\\\\server\\share\\x',
      '\\\\?\\C:\\x',
      'relative\\x',
      'C:\\x\\f.txt:stream',
    ]) {
      expect(() => buildCollectScript(template, defaultCollectInput({ paths: [bad] }))).toThrow(
        /refused/,
      );
    }
    expect(() =>
      buildCollectScript(
        template,
        defaultCollectInput({
          versionProbes: [{ component: 'k', exe: 'k.exe', args: ['--v; rm'], candidates: [] }],
        }),
      ),
    ).toThrow(/plain flag/);
  });

  it('refuses a template that is not collect.ps1', () => {
    expect(() => buildCollectScript("$in = 'x'\nWrite-Output $in", defaultCollectInput())).toThrow(
      /template/,
    );
  });
});
