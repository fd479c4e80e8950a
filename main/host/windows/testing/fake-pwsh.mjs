#!/usr/bin/env node
// A stand-in for powershell.exe/pwsh, for the session tests on machines without PowerShell.
//
// It speaks the protocol exactly as node-powershell uses it (child-shell 5.0.0 Shell.js): it is
// started with `-NoLogo -NoProfile -NonInteractive -NoExit -Command -`, reads one command per
// stdin line, and node-powershell frames every command with delimiter lines:
//   [Console]::Error.WriteLine("<delim>")   (stock)   or   [Console]::Error.Write("<delim>`n")
//   [Console]::Out.WriteLine("<delim>")     (stock)   or   [Console]::Out.Write("<delim>`n")
// The command itself is what shell-command.ts produces: a base64 script run as a script block.
// Inside that script the stand-in understands a few statements, one per line:
//   $PID                                  prints its process ID
//   Write-Output '<text>'                 a line on stdout ('' is a quote)
//   [Console]::Out.Write('<c>' * <n>)     n copies of c on stdout (large outputs)
//   Write-Error '<text>'                  a line on stderr
//   Start-Sleep -Milliseconds <n>         stops reading commands for n ms (a hung call)
//   exit <n>                              exits with code n
//   [Environment]::GetCommandLineArgs()   prints its arguments, one per line
// plus the session's init lines (session-init.ts), which it accepts silently. Anything else gets
// PowerShell's "not recognized" error on stderr.
//
// Output written while handling the commands that arrived in one stdin read is flushed in one
// write per stream, so delimiters arrive coalesced the way a fast shell's output often does.
// FAKE_PWSH_NEWLINE=crlf makes WriteLine end lines with CRLF, as on Windows.
import { Buffer } from 'node:buffer';
import { setTimeout } from 'node:timers';

const NL = process.env.FAKE_PWSH_NEWLINE === 'crlf' ? '\r\n' : '\n';
const out = { stdout: '', stderr: '' };
let pending = '';
let queue = Promise.resolve();

function flush() {
  if (out.stdout) process.stdout.write(out.stdout);
  if (out.stderr) process.stderr.write(out.stderr);
  out.stdout = '';
  out.stderr = '';
}

const sleep = (ms) =>
  new Promise((resolve) => {
    flush();
    setTimeout(resolve, ms);
  });

function unquote(s) {
  return s.replace(/''/g, "'");
}

const TRANSPORT =
  /^& \(\[ScriptBlock\]::Create\(\[Text\.Encoding\]::UTF8\.GetString\(\[Convert\]::FromBase64String\('([A-Za-z0-9+/=]*)'\)\)\)\)$/;
const INIT_LINES = [
  /^try \{ \[Console\]::OutputEncoding = /,
  /^\$global:ProgressPreference = /,
  /^\$env:PSModulePath = /,
];

async function statement(line) {
  const s = line.trim();
  let m;
  if (s === '' || s.startsWith('#') || INIT_LINES.some((re) => re.test(s))) return;
  if (s === '$PID') out.stdout += `${process.pid}${NL}`;
  else if ((m = /^Write-Output '((?:[^']|'')*)'$/.exec(s))) out.stdout += `${unquote(m[1])}${NL}`;
  else if ((m = /^\[Console\]::Out\.Write\('((?:[^']|'')*)' \* (\d+)\)$/.exec(s)))
    out.stdout += unquote(m[1]).repeat(Number(m[2]));
  else if ((m = /^Write-Error '((?:[^']|'')*)'$/.exec(s))) out.stderr += `${unquote(m[1])}${NL}`;
  else if ((m = /^Start-Sleep -Milliseconds (\d+)$/.exec(s))) await sleep(Number(m[1]));
  else if ((m = /^exit (\d+)$/.exec(s))) {
    flush();
    process.exit(Number(m[1]));
  } else if (s === '[Environment]::GetCommandLineArgs()')
    out.stdout += process.argv
      .slice(2)
      .map((a) => a + NL)
      .join('');
  else
    out.stderr += `${s.split(' ')[0]}: The term '${s.split(' ')[0]}' is not recognized as a name of a cmdlet.${NL}`;
}

async function command(line) {
  let m;
  if ((m = /^\[Console\]::(Out|Error)\.WriteLine\("([0-9A-Za-z]*)"\)$/.exec(line))) {
    out[m[1] === 'Out' ? 'stdout' : 'stderr'] += m[2] + NL;
  } else if ((m = /^\[Console\]::(Out|Error)\.Write\("([0-9A-Za-z]*)`n"\)$/.exec(line))) {
    out[m[1] === 'Out' ? 'stdout' : 'stderr'] += `${m[2]}\n`;
  } else if ((m = TRANSPORT.exec(line))) {
    for (const l of Buffer.from(m[1], 'base64').toString('utf8').split(/\r?\n/)) await statement(l);
  } else if (line.trim() !== '') {
    out.stderr += `ParserError: unexpected command line${NL}`;
  }
}

// `-Command <text>` (not `-`): one command from the arguments, then exit, as PowerShell does. Only
// the language-mode probe (language-mode.ts) is understood; FAKE_PWSH_LANGUAGE sets its answer.
const commandAt = process.argv.indexOf('-Command');
const oneCommand = commandAt >= 0 ? process.argv[commandAt + 1] : undefined;
if (oneCommand !== undefined && oneCommand !== '-') {
  if (oneCommand === "'cni-doctor-language=' + $ExecutionContext.SessionState.LanguageMode")
    process.stdout.write(
      `cni-doctor-language=${process.env.FAKE_PWSH_LANGUAGE ?? 'FullLanguage'}${NL}`,
    );
  else process.stderr.write(`ParserError: unexpected command${NL}`);
  process.exit(0);
}

process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  const lines = pending.split(/\r?\n/);
  pending = lines.pop() ?? '';
  queue = queue.then(async () => {
    for (const l of lines) await command(l);
    flush();
  });
});
process.stdin.on('end', () => {
  queue.then(() => {
    flush();
    process.exit(0);
  });
});
