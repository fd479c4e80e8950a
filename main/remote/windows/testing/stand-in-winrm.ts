/**
 * A stand-in New-PSSession for the local shell (tests only: no WinRM client exists on Linux). It
 * throws one line saying what it was given: the computer name, the credential's user, the .NET
 * type of its password and whether it is read-only, and the SHA-256 of the password's characters
 * (so a test can check them without the password appearing in any output).
 */
export const STAND_IN_NEW_PSSESSION = [
  // Windows PowerShell 5.1's error view: the message on the first line (pwsh 7's concise view
  // starts with "Exception:" alone, and serve shows an error's first line).
  "$global:ErrorView = 'NormalView'",
  'function global:New-PSSession {',
  '    param([string]$ComputerName, $Credential, [int]$Port, [switch]$UseSSL)',
  "    $type = 'none'; $ro = 'n/a'; $hash = 'n/a'; $user = 'n/a'",
  '    if ($null -ne $Credential) {',
  '        $user = $Credential.UserName',
  '        $type = $Credential.Password.GetType().FullName',
  '        $ro = [string]$Credential.Password.IsReadOnly()',
  '        $plain = $Credential.GetNetworkCredential().Password',
  '        $sha = [System.Security.Cryptography.SHA256]::Create()',
  "        $hash = -join ($sha.ComputeHash([Text.Encoding]::UTF8.GetBytes($plain)) | ForEach-Object { $_.ToString('x2') })",
  '    }',
  '    throw "stand-in New-PSSession: ComputerName=$ComputerName user=$user type=$type readonly=$ro sha256=$hash"',
  '}',
].join('\n');
