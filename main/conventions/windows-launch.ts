/**
 * How a Windows service is started (docs/knowledge/windows-node.md#how-the-kubelet-is-started): the
 * registry key that holds its ImagePath and nssm Parameters, and the PowerShell scripts its
 * command line runs. collect.ps1 (Get-LaunchScriptPaths) finds the same script paths on the node,
 * so the scripts a probe asks for were read in the scan's first call.
 */

export const SERVICES_KEY = 'HKLM\\SYSTEM\\CurrentControlSet\\Services';

/** Where sig-windows-tools' PrepareNode.ps1 writes the script nssm runs as the kubelet service. */
export const DEFAULT_KUBELET_SCRIPT = 'C:\\k\\StartKubelet.ps1';

export function serviceKey(name: string): string {
  return `${SERVICES_KEY}\\${name}`;
}

export function nssmKey(name: string): string {
  return `${serviceKey(name)}\\Parameters`;
}

const PLAIN_LOCAL = /^[A-Za-z]:\\/;
const ABSOLUTE_PS1 = /[A-Za-z]:\\[^"'<>|*?:\r\n]*?\.ps1(?=$|[\s'"};)])/g;
const RELATIVE_PS1 = /^[^\\/:"'<>|*?\s&{}]+\.ps1$/;

/**
 * The .ps1 paths a command line names: `powershell.exe -ExecutionPolicy Bypass -NoProfile
 * C:\k\StartKubelet.ps1`, `-File "C:\x y\start.ps1"`, K2s' `"Invoke-Command {&'C:\…\StartKubelet.ps1'}"`;
 * a bare `start.ps1` counts against `directory` (nssm AppDirectory) when that is a local path.
 */
export function launchScriptPaths(commandLine: string, directory = ''): string[] {
  const found: string[] = [];
  for (const t of commandLine.match(/"[^"]*"|[^\s"]+/g) ?? []) {
    const token = t.replace(/^"+|"+$/g, '');
    for (const m of token.match(ABSOLUTE_PS1) ?? []) found.push(m);
    if (RELATIVE_PS1.test(token) && PLAIN_LOCAL.test(directory) && directory.indexOf(':', 2) < 0)
      found.push(`${directory.replace(/\\+$/, '')}\\${token}`);
  }
  return found;
}
