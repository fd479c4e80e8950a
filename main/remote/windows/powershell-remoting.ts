/**
 * A Windows node reached through PowerShell remoting, as a ScriptRunner for WindowsHost: a local
 * PowerShell (pwsh, or Windows PowerShell on a Windows workstation) opens ONE remote session to the
 * node and every script the doctor would run locally (collect.ps1, repair-step.ps1) runs in it.
 *
 *   winrm:     New-PSSession -ComputerName HOST [-Port N] [-UseSSL]   (WinRM; Server Core's default,
 *              reaches Windows PowerShell 5.1 on the node)
 *   pssession: New-PSSession -HostName HOST [-UserName U] [-Port N]   (PowerShell over SSH: the
 *              node runs `Subsystem powershell … -sshs` in sshd_config; PowerShell 7)
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

export type RemotingKind = 'winrm' | 'pssession';

export interface RemotingTarget {
  kind: RemotingKind;
  host: string;
  user?: string;
  port?: number;
}

export interface RemotingOptions {
  /** The local shell (default: pwsh; powershell.exe on Windows). */
  executable?: string;
  /** pssession: the private key for ssh (-KeyFilePath). */
  keyFile?: string;
  /** pssession: extra ssh -o options (-Options), e.g. a known_hosts file. */
  sshOptions?: Record<string, string>;
  /** winrm: HTTPS (-UseSSL). */
  useSsl?: boolean;
  /** PowerShell run once in the remote session after it opens (tests: the mock node). */
  remoteInit?: string;
  /** Deadline for opening the session. Default 60 s. */
  connectDeadlineMs?: number;
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

/** The local script that opens the remote session (kept in $global:CniDoctorRemote). */
export function connectScript(t: RemotingTarget, o: RemotingOptions = {}): string {
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
    ...(o.remoteInit !== undefined && { remoteInit: b64(o.remoteInit) }),
  };
  return [
    `$c = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('${b64(JSON.stringify(data))}')) | ConvertFrom-Json`,
    "$ErrorActionPreference = 'Stop'",
    '$p = @{}',
    "if ($c.kind -eq 'pssession') {",
    '    $p.HostName = [string]$c.host',
    '    if ($c.user) { $p.UserName = [string]$c.user }',
    '    if ($c.keyFile) { $p.KeyFilePath = [string]$c.keyFile }',
    '    if ($c.sshOptions) { $o = @{}; foreach ($x in $c.sshOptions.PSObject.Properties) { $o[$x.Name] = [string]$x.Value }; $p.Options = $o }',
    '} else {',
    '    $p.ComputerName = [string]$c.host',
    '    if ($c.useSsl) { $p.UseSSL = $true }',
    '}',
    'if ($c.port) { $p.Port = [int]$c.port }',
    'if ($null -ne $global:CniDoctorRemote) { Remove-PSSession -Session $global:CniDoctorRemote -ErrorAction SilentlyContinue }',
    '$global:CniDoctorRemote = New-PSSession @p',
    'if ($c.remoteInit) {',
    '    Invoke-Command -Session $global:CniDoctorRemote -ArgumentList ([string]$c.remoteInit) -ScriptBlock { param($s) & ([ScriptBlock]::Create([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($s)))) | Out-Null }',
    '}',
    "[Console]::Out.WriteLine('connected')",
  ].join('\n');
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

  constructor(
    readonly target: RemotingTarget,
    private readonly opts: RemotingOptions = {},
  ) {
    this.session = new PowerShellSession({
      ...(opts.executable !== undefined && { executable: opts.executable }),
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
    this.connected ??= this.session
      .run(connectScript(this.target, this.opts), {
        deadlineMs: this.opts.connectDeadlineMs ?? 60_000,
      })
      .then((r) => {
        if (!r.ok) this.connected = undefined;
        return r;
      });
    return this.connected;
  }

  async run(script: string, opts: RunOptions): Promise<RunResult> {
    const c = await this.connect();
    if (!c.ok) return { ...c, message: `opening the remote session failed: ${c.message}` };
    const r = await this.session.run(remoteRunScript(script), opts);
    // A killed local shell (deadline) took the remote session with it: reconnect next time.
    if (!r.ok && (r.kind === 'timeout' || r.kind === 'exit')) this.connected = undefined;
    return r;
  }

  async dispose(): Promise<void> {
    this.connected = undefined;
    await this.session.dispose();
  }
}
