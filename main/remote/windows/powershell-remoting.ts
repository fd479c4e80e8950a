/**
 * A Windows node reached through PowerShell remoting, as a ScriptRunner for WindowsHost: a local
 * PowerShell opens ONE remote session to the node and every script the doctor would run locally
 * (collect.ps1, repair-step.ps1) runs in it. Which local shell, and where none can work, is
 * remoting-shell.ts:
 *
 *   winrm:     New-PSSession -ComputerName HOST [-Port N] [-UseSSL] [-Credential USER]
 *              (WinRM; Server Core's default, reaches Windows PowerShell 5.1 on the node). Only
 *              from Windows (System32's powershell.exe). With USER@ the password is asked through
 *              RemotingOptions.password when the session opens (the terminal, or the desktop app's
 *              and serve's password dialog) and reaches the local shell over a one-shot pipe
 *              (credential-pipe.ts) straight into a SecureString, never in script text; a
 *              workgroup node also needs TrustedHosts or HTTPS
 *              (docs/knowledge/windows-remoting.md).
 *   pssession: New-PSSession -HostName HOST [-UserName U] [-Port N]   (PowerShell over SSH: the
 *              node runs `Subsystem powershell … -sshs` in sshd_config). Only with PowerShell 7
 *              (pwsh) on the workstation: 5.1 has no SSH parameter set.
 *
 * Right after the session opens, the node's language mode is asked (language-mode.ts): a node in
 * ConstrainedLanguage gets one clear reason instead of unrelated errors.
 *
 * The connection parameters reach the local shell as base64 JSON data (never pasted into code, the
 * same rule as build-script.ts), and each script travels to the node as a base64 argument of
 * Invoke-Command. The scripts write their JSON with [Console]::Out, which remoting does not carry,
 * so on the node the console is redirected into a string that comes back as the pipeline's output.
 * An error the script throws comes back as an error record: the local shell prints it on stderr,
 * so the session's stderr policy (fail for repairs, allow for collection) holds remotely too.
 */
import {
  PowerShellSession,
  type RunOptions,
  type RunResult,
  type ScriptRunner,
} from '../../host/windows/powershell-session';
import { languageModeRefusal } from '../../host/windows/language-mode';
import { remotingShell, type ShellLookup } from './remoting-shell';
import type { NodeDeadlines } from '../node-deadlines';
import { offerSecret, type SecretHandoff } from './credential-pipe';

export type RemotingKind = 'winrm' | 'pssession';

export interface RemotingTarget {
  kind: RemotingKind;
  host: string;
  user?: string;
  port?: number;
}

export interface RemotingOptions {
  /** The local shell (default: remoting-shell.ts; pwsh for pssession, powershell.exe for winrm). */
  executable?: string;
  /**
   * winrm with USER@: asks USER's password when the session opens (the CLI: a prompt without echo
   * on the terminal). Undefined = cancelled. The answer is used once and not kept.
   */
  password?: (prompt: string) => Promise<string | undefined>;
  /** Where to look for the local shell (tests). */
  shellLookup?: ShellLookup;
  /** pssession: the private key for ssh (-KeyFilePath). */
  keyFile?: string;
  /** pssession: extra ssh -o options (-Options), e.g. a known_hosts file. */
  sshOptions?: Record<string, string>;
  /** winrm: HTTPS (-UseSSL). */
  useSsl?: boolean;
  /**
   * PowerShell run in the local shell right before New-PSSession (tests only: a stand-in
   * New-PSSession that reports what it was given, where no WinRM client exists).
   */
  localInit?: string;
  /** PowerShell run once in the remote session after it opens (tests: the mock node). */
  remoteInit?: string;
  /**
   * Deadline for the local shell's start (PowerShellSession's default, 30 s, otherwise). Tests
   * on a loaded machine give more: pwsh (a .NET program) took over 30 s to start at load 25.
   */
  startDeadlineMs?: number;
  /** Deadline for opening the session. Default 60 s (capped by deadlines). */
  connectDeadlineMs?: number;
  /**
   * --node-timeout / --node-session-timeout (node-deadlines.ts). Over remoting one answer is one
   * PowerShell call (opening the session, the collection, each follow-up, each repair step):
   * answerMs caps each call's deadline, sessionMs the time all calls of this runner may take.
   * Only what the user gave applies: the calls keep their own deadlines otherwise.
   */
  deadlines?: Partial<NodeDeadlines>;
}

const HOST = /^(?:[A-Za-z0-9_][A-Za-z0-9_.-]{0,252}|[0-9A-Fa-f:.]{2,45})$/;
const USER = /^[A-Za-z0-9_][A-Za-z0-9_.@\\-]{0,63}$/;
const SSH_OPTION = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

export function validateRemoting(t: RemotingTarget, o: RemotingOptions = {}): string[] {
  const problems: string[] = [];
  if (!HOST.test(t.host)) problems.push(`${JSON.stringify(t.host)} is not a host name or address`);
  if (t.user !== undefined && !USER.test(t.user))
    problems.push(`${JSON.stringify(t.user)} is not a user name`);
  if (t.port !== undefined && (!Number.isInteger(t.port) || t.port < 1 || t.port > 65535))
    problems.push(`port ${t.port} is outside 1–65535`);
  for (const [k, v] of Object.entries(o.sshOptions ?? {}))
    if (!SSH_OPTION.test(k) || /[\r\n\0]/.test(v)) problems.push(`ssh option ${JSON.stringify(k)}`);
  if (o.keyFile !== undefined && /[\r\n\0]/.test(o.keyFile)) problems.push('key file path');
  return problems;
}

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/**
 * How each kind opens its session, as separate texts: the winrm one runs in Windows PowerShell 5.1
 * (the ps51-compat check holds it to 5.1), the pssession one only in PowerShell 7, which its first
 * line says to that check.
 */
const WINRM_PARAMETERS = [
  '$p.ComputerName = [string]$c.host',
  'if ($c.useSsl) { $p.UseSSL = $true }',
  'if ($c.cred) {',
  // The password comes over the pipe credential-pipe.ts serves, straight into a SecureString:
  // no script text holds it (script block logging), and the bytes and chars are cleared after.
  // Any failure is one fixed message: an error record here must not quote what it read.
  '    $secure = New-Object System.Security.SecureString',
  "    $pipe = New-Object System.IO.Pipes.NamedPipeClientStream ('.', [string]$c.cred.pipe, [System.IO.Pipes.PipeDirection]::InOut)",
  '    $buf = New-Object byte[] 1024', // MAX_SECRET_BYTES (a literal: the ps51 check reads it)
  '    $got = 0',
  '    try {',
  '        $pipe.Connect(30000)',
  '        $nonce = [Text.Encoding]::ASCII.GetBytes([string]$c.cred.nonce)',
  '        $pipe.Write($nonce, 0, $nonce.Length)',
  '        $pipe.Flush()',
  '        while ($got -lt $buf.Length) { $k = $pipe.Read($buf, $got, $buf.Length - $got); if ($k -le 0) { break }; $got += $k }',
  '        $chars = [Text.Encoding]::UTF8.GetChars($buf, 0, $got)',
  '        foreach ($ch in $chars) { $secure.AppendChar($ch) }',
  '        [Array]::Clear($chars, 0, $chars.Length)',
  '    } catch {',
  "        throw 'cni-doctor: the password could not be handed to PowerShell'",
  '    } finally {',
  '        [Array]::Clear($buf, 0, $buf.Length)',
  '        $pipe.Dispose()',
  '    }',
  "    if ($got -eq 0) { throw 'cni-doctor: the password could not be handed to PowerShell' }",
  '    $secure.MakeReadOnly()',
  '    $p.Credential = New-Object System.Management.Automation.PSCredential ([string]$c.user, $secure)',
  '}',
].join('\n');

const PSSESSION_PARAMETERS = [
  '# cni-doctor: PowerShell 7 only (New-PSSession SSH parameter set; remoting-shell.ts never runs this in 5.1)',
  '$p.HostName = [string]$c.host',
  'if ($c.user) { $p.UserName = [string]$c.user }',
  'if ($c.keyFile) { $p.KeyFilePath = [string]$c.keyFile }',
  'if ($c.sshOptions) { $o = @{}; foreach ($x in $c.sshOptions.PSObject.Properties) { $o[$x.Name] = [string]$x.Value }; $p.Options = $o }',
].join('\n');

/** What the connect script throws when the node's session is not FullLanguage (mapped in connect()). */
const LANGUAGE_MARKER = 'cni-doctor-language=';

/** The local script that opens the remote session (kept in $global:CniDoctorRemote). */
export function connectScript(
  t: RemotingTarget,
  o: RemotingOptions = {},
  cred?: Pick<SecretHandoff, 'pipe' | 'nonce'>,
): string {
  const problems = validateRemoting(t, o);
  if (problems.length > 0) throw new Error(`remoting target refused: ${problems.join('; ')}`);
  const data = {
    kind: t.kind,
    host: t.host,
    ...(t.user !== undefined && { user: t.user }),
    ...(t.port !== undefined && { port: t.port }),
    ...(o.keyFile !== undefined && { keyFile: o.keyFile }),
    ...(o.sshOptions !== undefined && { sshOptions: o.sshOptions }),
    useSsl: o.useSsl === true,
    ...(cred !== undefined &&
      t.kind === 'winrm' && { cred: { pipe: cred.pipe, nonce: cred.nonce } }),
    ...(o.remoteInit !== undefined && { remoteInit: b64(o.remoteInit) }),
  };
  const script = [
    `$c = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('${b64(JSON.stringify(data))}')) | ConvertFrom-Json`,
    "$ErrorActionPreference = 'Stop'",
    '$p = @{}',
    t.kind === 'pssession' ? PSSESSION_PARAMETERS : WINRM_PARAMETERS,
    'if ($c.port) { $p.Port = [int]$c.port }',
    'if ($null -ne $global:CniDoctorRemote) { Remove-PSSession -Session $global:CniDoctorRemote -ErrorAction SilentlyContinue }',
    '$global:CniDoctorRemote = New-PSSession @p',
    '$p = $null',
    'if ($c.remoteInit) {',
    '    Invoke-Command -Session $global:CniDoctorRemote -ArgumentList ([string]$c.remoteInit) -ScriptBlock { param($s) & ([ScriptBlock]::Create([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($s)))) | Out-Null }',
    '}',
    // Allowed in every language mode but NoLanguage, where the call itself fails (also a refusal).
    "$mode = 'NoLanguage'",
    'try { $mode = [string](Invoke-Command -Session $global:CniDoctorRemote -ScriptBlock { $ExecutionContext.SessionState.LanguageMode }) } catch { }',
    "if ($mode -ne 'FullLanguage') {",
    '    Remove-PSSession -Session $global:CniDoctorRemote -ErrorAction SilentlyContinue',
    '    $global:CniDoctorRemote = $null',
    `    throw ('${LANGUAGE_MARKER}' + $mode)`,
    '}',
    "[Console]::Out.WriteLine('connected')",
  ].join('\n');
  // Tests: a stand-in New-PSSession, defined before the script runs.
  return o.localInit === undefined ? script : `${o.localInit}\n${script}`;
}

/**
 * The local script that runs one node script in the remote session. On the node the script block
 * gets the console redirected into a StringWriter; that string is the only pipeline output.
 */
export function remoteRunScript(script: string): string {
  return [
    "$ErrorActionPreference = 'Stop'",
    "if ($null -eq $global:CniDoctorRemote -or $global:CniDoctorRemote.State -ne 'Opened') { throw 'the remote session is not open' }",
    `$out = Invoke-Command -Session $global:CniDoctorRemote -ArgumentList '${b64(script)}' -ScriptBlock {`,
    '    param($s)',
    '    $text = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($s))',
    '    $saved = [Console]::Out',
    '    $w = New-Object IO.StringWriter',
    '    [Console]::SetOut($w)',
    '    try { & ([ScriptBlock]::Create($text)) | Out-Null } finally { [Console]::SetOut($saved) }',
    '    $w.ToString()',
    '}',
    '[Console]::Out.Write(($out | ForEach-Object { [string]$_ }) -join "")',
  ].join('\n');
}

export class PowerShellRemotingRunner implements ScriptRunner {
  private readonly session: PowerShellSession;
  private connected: Promise<RunResult> | undefined;
  /** Milliseconds spent waiting on the node so far (against deadlines.sessionMs). */
  private spentMs = 0;
  /** Why no local shell can open this kind of session here, if none can. */
  readonly refusal: string | undefined;

  constructor(
    readonly target: RemotingTarget,
    private readonly opts: RemotingOptions = {},
  ) {
    const shell = remotingShell(target.kind, opts.executable, opts.shellLookup);
    this.refusal = shell.ok ? undefined : shell.reason;
    this.session = new PowerShellSession({
      ...(shell.ok && { executable: shell.executable }),
      ...(opts.startDeadlineMs !== undefined && { startDeadlineMs: opts.startDeadlineMs }),
    });
  }

  /** Words for reports. */
  get transportName(): string {
    return this.target.kind === 'winrm'
      ? 'PowerShell remoting (WinRM)'
      : 'PowerShell remoting over SSH';
  }

  /** Opens the remote session (once; again after the local shell was restarted). */
  connect(): Promise<RunResult> {
    this.connected ??= this.open().then((r) => {
      if (!r.ok) this.connected = undefined;
      return r;
    });
    return this.connected;
  }

  private async open(): Promise<RunResult> {
    if (this.refusal !== undefined) return { ok: false, kind: 'exit', message: this.refusal };
    let handoff: SecretHandoff | undefined;
    if (this.target.kind === 'winrm' && this.target.user !== undefined) {
      // WinRM would otherwise log on as the local user with Kerberos, which a workgroup node
      // (most Kubernetes Windows nodes) refuses.
      if (this.opts.password === undefined)
        return {
          ok: false,
          kind: 'exit',
          message: `winrm:${this.target.user}@${this.target.host} needs ${this.target.user}'s password, and this front end cannot ask for it: run the scan from the terminal (cni-doctor asks), or leave out USER@ to log on as yourself (domain-joined nodes)`,
        };
      const typed = await this.opts.password(
        `Password for ${this.target.user}@${this.target.host}: `,
      );
      if (typed === undefined) return { ok: false, kind: 'exit', message: 'no password given' };
      try {
        handoff = await offerSecret(Buffer.from(typed, 'utf8'));
      } catch (e) {
        return { ok: false, kind: 'exit', message: (e as Error).message };
      }
    }
    let r: RunResult;
    try {
      r = await this.timed(connectScript(this.target, this.opts, handoff), {
        deadlineMs: this.opts.connectDeadlineMs ?? 60_000,
      });
    } finally {
      handoff?.close();
    }
    if (!r.ok && r.message.includes(LANGUAGE_MARKER)) {
      const mode = /cni-doctor-language=(\w+)/.exec(r.message)?.[1] ?? 'a restricted';
      return { ...r, message: languageModeRefusal(mode, `The node ${this.target.host}`) };
    }
    return r;
  }

  async run(script: string, opts: RunOptions): Promise<RunResult> {
    const c = await this.connect();
    if (!c.ok) return { ...c, message: `opening the remote session failed: ${c.message}` };
    const r = await this.timed(remoteRunScript(script), opts);
    // A killed local shell (deadline) took the remote session with it: reconnect next time.
    if (!r.ok && (r.kind === 'timeout' || r.kind === 'exit')) this.connected = undefined;
    return r;
  }

  /** One call under the user's deadlines: its own, capped by --node-timeout and what is left. */
  private async timed(script: string, opts: RunOptions): Promise<RunResult> {
    const { answerMs, sessionMs } = this.opts.deadlines ?? {};
    const left = sessionMs === undefined ? Infinity : sessionMs - this.spentMs;
    if (left <= 0)
      return {
        ok: false,
        kind: 'timeout',
        message: `the node ${this.target.host} has used up its ${sessionMs} ms (--node-session-timeout)`,
      };
    const deadlineMs = Math.max(1, Math.min(opts.deadlineMs, answerMs ?? Infinity, left));
    const started = performance.now();
    try {
      const r = await this.session.run(script, { ...opts, deadlineMs });
      if (r.ok || r.kind !== 'timeout' || deadlineMs === opts.deadlineMs) return r;
      const flag = deadlineMs === answerMs ? '--node-timeout' : '--node-session-timeout';
      return { ...r, message: `${r.message} (${flag})` };
    } finally {
      this.spentMs += performance.now() - started;
    }
  }

  async dispose(): Promise<void> {
    this.connected = undefined;
    await this.session.dispose();
  }
}
