# cni-doctor: one read-only collection pass over a Windows node (docs/knowledge/windows-hns.md#three-powershell-surfaces, docs/knowledge/windows-node.md#named-pipes, docs/knowledge/windows-node.md#services-restart-order-and-logs).
#
# build-script.ts puts exactly one line in front of this file:
#   $in = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('<b64>')) | ConvertFrom-Json
# Every value the caller chooses (paths, service and process names, version probes, limits)
# arrives through $in as data and is never pasted into code, so no name can run as a command.
#
# Rules this script keeps:
# - It only reads. Nothing here creates, changes, stops or deletes anything on the node.
# - Each section catches its own errors and reports them in the document; one broken section
#   (a hung HNS, a denied registry key) never costs the others, and nothing is thrown.
# - Output is ONE line of JSON on [Console]::Out, ASCII only (non-ASCII escaped as \uXXXX): the
#   console code page then cannot garble it (docs/knowledge/windows-hns.md#getting-json-out-reliably), and the formatting system cannot wrap it.
# - Runs on Windows PowerShell 5.1 and PowerShell 7: no -AsArray, no ?? / ?. operators.

Set-StrictMode -Off
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
$WarningPreference = 'SilentlyContinue'
$VerbosePreference = 'SilentlyContinue'
$InformationPreference = 'SilentlyContinue'

$FORMAT = 'cni-doctor.windows-collect/v1'

# ---------------------------------------------------------------- helpers

function Get-ErrorText($ErrorRecord) {
    $e = $ErrorRecord.Exception
    # .NET calls made from PowerShell wrap the real error; the inner one carries the HRESULT.
    if ($e -is [System.Management.Automation.MethodInvocationException] -and $null -ne $e.InnerException) {
        $e = $e.InnerException
    }
    $text = [string]$e.Message
    # Get-CimInstance fails with a CimException whose HResult is the CLR's generic 0x80131500; the
    # WMI code is its NativeErrorCode (InvalidClass, AccessDenied, ...), which is what says why.
    if ($e.GetType().FullName -eq 'Microsoft.Management.Infrastructure.CimException' -and [string]$e.NativeErrorCode -ne 'Ok') {
        $text = '{0} (WMI {1})' -f $text, $e.NativeErrorCode
    }
    # HNS and Win32 errors are localised; the HRESULT is what rules can match (docs/knowledge/windows-hns.md#getting-json-out-reliably, docs/knowledge/log-signatures-windows.md#log-lines-cni-doctor-recognises-windows).
    # The CLR's own generic codes (0x801315xx) say nothing and are left out.
    $hex = '{0:X8}' -f $e.HResult
    if ($e.HResult -ne 0 -and -not $hex.StartsWith('801315')) { $text = '{0} (0x{1})' -f $text, $hex }
    return $text
}

function Test-UnderDirectory([string]$Path, [string]$Directory) {
    if ([string]::IsNullOrEmpty($Path) -or [string]::IsNullOrEmpty($Directory)) { return $false }
    $sep = [IO.Path]::DirectorySeparatorChar
    $full = [IO.Path]::GetFullPath($Path)
    $root = [IO.Path]::GetFullPath($Directory).TrimEnd($sep) + $sep
    return $full.StartsWith($root, [StringComparison]::OrdinalIgnoreCase)
}

# Modules may only come from folders that need Administrator to write: an elevated scan must not
# load a module an unprivileged user dropped into Documents\WindowsPowerShell\Modules.
function Test-TrustedModuleBase([string]$Path) {
    return (Test-UnderDirectory $Path $env:SystemRoot) -or (Test-UnderDirectory $Path $env:ProgramFiles)
}

# Only plain local drive paths: no \\.\pipe\ (opening a pipe connects to it, docs/knowledge/windows-node.md#named-pipes), no UNC share,
# no \\?\ device path, no alternate data stream.
# Forward slashes count as backslashes, as Windows itself treats them: Antrea's documented nssm
# install writes c:/k/antrea/bin/antrea-agent.exe into the service's Application.
function Test-LocalPath([string]$Path) {
    if ([string]::IsNullOrEmpty($Path)) { return $false }
    $Path = $Path.Replace('/', '\')
    if ($Path -notmatch '^[A-Za-z]:\\') { return $false }
    if ($Path.IndexOf(':', 2) -ge 0) { return $false }
    if ($Path.IndexOf([char]0) -ge 0) { return $false }
    return $true
}

# Where the node's namespaces are read from. On a node: its own C:\ and \\.\pipe\. $in.nodeRoot
# maps them elsewhere - a drive letter to a folder (a node's disk mounted on another machine, the
# tests' mock node) and the pipe listing to a folder - while every path in the document stays
# the node's own spelling.
$DRIVE_ROOTS = @{}
# (A hashtable, so the function below can change it: this script runs as a script block, where
# $script: would reach past it into the session.)
$PIPES = @{ root = '\\.\pipe\' }
function Set-NodeRoot($NodeRoot) {
    if ($null -eq $NodeRoot) { return }
    if ($null -ne $NodeRoot.drives) {
        foreach ($p in $NodeRoot.drives.PSObject.Properties) {
            if ($p.Name -match '^[A-Za-z]$' -and -not [string]::IsNullOrEmpty([string]$p.Value)) {
                $DRIVE_ROOTS[$p.Name.ToUpperInvariant()] = [string]$p.Value
            }
        }
    }
    if (-not [string]::IsNullOrEmpty([string]$NodeRoot.pipes)) {
        $sep = [string][IO.Path]::DirectorySeparatorChar
        $PIPES['root'] = ([string]$NodeRoot.pipes).TrimEnd($sep) + $sep
    }
}

# The path to open for a node path (itself unless its drive is mapped by $in.nodeRoot).
function Get-IoPath([string]$Path) {
    $Path = $Path.Replace('/', '\')
    if ($DRIVE_ROOTS.Count -eq 0 -or $Path -notmatch '^[A-Za-z]:\\') { return $Path }
    $root = $DRIVE_ROOTS[$Path.Substring(0, 1).ToUpperInvariant()]
    if ($null -eq $root) { return $Path }
    $sep = [string][IO.Path]::DirectorySeparatorChar
    return $root.TrimEnd($sep) + $sep + $Path.Substring(3).Replace('\', $sep)
}

# A list from the caller's data without the $null that @($null) would hold for a missing field.
function Get-List($Value) {
    return @(@($Value) | Where-Object { $null -ne $_ })
}

# The last part of a node path (a Windows path, whatever the platform this script runs on).
function Get-LeafName([string]$Path) {
    $Path = $Path.Replace('/', '\')
    return $Path.Substring($Path.LastIndexOf('\') + 1)
}

function Limit-Text([string]$Text, [long]$MaxChars) {
    if ($null -eq $Text) { return $null }
    if ($Text.Length -le $MaxChars) { return $Text }
    return $Text.Substring(0, [int]$MaxChars)
}

# Runs a program with a deadline. Its stdin is a closed pipe, so it cannot swallow the commands
# node-powershell writes to this shell's stdin; its stderr is captured, so it cannot make the
# whole call look failed (node-powershell treats any stderr byte as an error, docs/knowledge/windows-node.md#node-powershell).
# $Encoding: how the child writes its output. Left out, .NET Framework decodes with
# Console.OutputEncoding, which the session sets to UTF-8: right for the Go programs probed here.
function Invoke-BoundedProcess([string]$FilePath, [string[]]$Arguments, [int]$TimeoutMs, [System.Text.Encoding]$Encoding = $null) {
    $psi = New-Object System.Diagnostics.ProcessStartInfo
    $psi.FileName = $FilePath
    $psi.Arguments = ($Arguments -join ' ')
    $psi.UseShellExecute = $false
    $psi.CreateNoWindow = $true
    $psi.RedirectStandardInput = $true
    $psi.RedirectStandardOutput = $true
    $psi.RedirectStandardError = $true
    if ($null -ne $Encoding) {
        $psi.StandardOutputEncoding = $Encoding
        $psi.StandardErrorEncoding = $Encoding
    }
    $p = [System.Diagnostics.Process]::Start($psi)
    try {
        $p.StandardInput.Close()
        $stdout = $p.StandardOutput.ReadToEndAsync()
        $stderr = $p.StandardError.ReadToEndAsync()
        if (-not $p.WaitForExit($TimeoutMs)) {
            try { $p.Kill() } catch { }
            return [ordered]@{ timedOut = $true; exitCode = $null; stdout = ''; stderr = '' }
        }
        # The parameterless wait also waits for the redirected streams to reach their end.
        $p.WaitForExit()
        return [ordered]@{ timedOut = $false; exitCode = $p.ExitCode; stdout = $stdout.Result; stderr = $stderr.Result }
    } finally {
        $p.Dispose()
    }
}

# Runs PowerShell code in its own runspace with a deadline. HNS calls can hang for minutes or for
# ever (docs/knowledge/windows-node.md#scale); a hung call is abandoned, not stopped (stopping can block on the same native
# call), and reported, so the rest of the scan still comes back. The TypeScript side recycles the
# shell after a scan that reported a timeout.
function Invoke-InRunspace([string]$Code, [object[]]$Arguments, [int]$TimeoutMs) {
    $ps = [PowerShell]::Create()
    [void]$ps.AddScript($Code)
    foreach ($a in $Arguments) { [void]$ps.AddArgument($a) }
    $async = $ps.BeginInvoke()
    if (-not $async.AsyncWaitHandle.WaitOne($TimeoutMs)) {
        [void]$ps.BeginStop($null, $null)
        return [ordered]@{ items = @(); error = ('timed out after {0} ms' -f $TimeoutMs); timedOut = $true }
    }
    try {
        $items = @($ps.EndInvoke($async))
        $messages = @($ps.Streams.Error | ForEach-Object { $_.ToString() })
        $err = $null
        if ($messages.Count -gt 0) { $err = $messages -join ' | ' }
        return [ordered]@{ items = $items; error = $err; timedOut = $false }
    } catch {
        return [ordered]@{ items = @(); error = (Get-ErrorText $_); timedOut = $false }
    } finally {
        $ps.Dispose()
    }
}

# ---------------------------------------------------------------- host

function Get-HostSection {
    $section = [ordered]@{ hostname = [Environment]::MachineName; elevated = $null; error = $null }
    try {
        $identity = [Security.Principal.WindowsIdentity]::GetCurrent()
        $principal = New-Object Security.Principal.WindowsPrincipal $identity
        $section['elevated'] = $principal.IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)
    } catch {
        # Unknown, not false: the rest of the section still tells what the node is.
        $section['elevatedError'] = Get-ErrorText $_
    }
    $section['psVersion'] = [string]$PSVersionTable.PSVersion
    $section['psEdition'] = [string]$PSVersionTable.PSEdition
    try {
        $cv = Get-ItemProperty -LiteralPath 'HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion'
        $major = $cv.CurrentMajorVersionNumber
        $minor = $cv.CurrentMinorVersionNumber
        if ($null -eq $major) {
            $v = [Environment]::OSVersion.Version
            $major = $v.Major
            $minor = $v.Minor
        }
        $section['osBuild'] = [string]$cv.CurrentBuildNumber
        $section['osVersion'] = '{0}.{1}.{2}' -f $major, $minor, $cv.CurrentBuildNumber
        $section['ubr'] = $cv.UBR
        $section['productName'] = [string]$cv.ProductName
        $section['displayVersion'] = [string]$cv.DisplayVersion
        $section['releaseId'] = [string]$cv.ReleaseId
        $section['installationType'] = [string]$cv.InstallationType
    } catch {
        $section['error'] = Get-ErrorText $_
    }
    return $section
}

# ---------------------------------------------------------------- named pipes

# The listing with FindFirstFileW/FindNextFileW, as C# 5 (Windows PowerShell 5.1 compiles
# Add-Type code with the .NET Framework's CodeDom compiler). .NET Framework's Directory.GetFiles
# checks every name it returns as a path and throws "Illegal characters in path" on the first pipe
# whose name holds | " < > or a control character, which any process may create; then the whole
# listing would be lost (docs/knowledge/windows-node.md#named-pipes). The Win32 calls return names
# as they are.
$PIPE_LISTING = @'
using System;
using System.Collections.Generic;
using System.ComponentModel;
using System.Runtime.InteropServices;

namespace CniDoctor.Pipes {
    public static class Listing {
        [StructLayout(LayoutKind.Sequential, CharSet = CharSet.Unicode)]
        private struct FindData {
            public uint FileAttributes;
            public System.Runtime.InteropServices.ComTypes.FILETIME CreationTime;
            public System.Runtime.InteropServices.ComTypes.FILETIME LastAccessTime;
            public System.Runtime.InteropServices.ComTypes.FILETIME LastWriteTime;
            public uint FileSizeHigh;
            public uint FileSizeLow;
            public uint Reserved0;
            public uint Reserved1;
            [MarshalAs(UnmanagedType.ByValTStr, SizeConst = 260)] public string FileName;
            [MarshalAs(UnmanagedType.ByValTStr, SizeConst = 14)] public string AlternateFileName;
        }

        [DllImport("kernel32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
        private static extern IntPtr FindFirstFileW(string fileName, out FindData data);

        [DllImport("kernel32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
        [return: MarshalAs(UnmanagedType.Bool)]
        private static extern bool FindNextFileW(IntPtr find, out FindData data);

        [DllImport("kernel32.dll", SetLastError = true)]
        [return: MarshalAs(UnmanagedType.Bool)]
        private static extern bool FindClose(IntPtr find);

        private const int ERROR_FILE_NOT_FOUND = 2;
        private const int ERROR_NO_MORE_FILES = 18;

        // Every name in a directory (\\.\pipe\), without opening any of them.
        public static string[] Names(string directory) {
            List<string> names = new List<string>();
            FindData data;
            IntPtr find = FindFirstFileW(directory + "*", out data);
            if (find == new IntPtr(-1)) {
                int error = Marshal.GetLastWin32Error();
                if (error == ERROR_FILE_NOT_FOUND || error == ERROR_NO_MORE_FILES) { return names.ToArray(); }
                throw new Win32Exception(error);
            }
            try {
                do {
                    names.Add(data.FileName);
                } while (FindNextFileW(find, out data));
                int last = Marshal.GetLastWin32Error();
                if (last != ERROR_NO_MORE_FILES) { throw new Win32Exception(last); }
            } finally {
                FindClose(find);
            }
            return names.ToArray();
        }
    }
}
'@

function Get-PipeSection {
    $section = [ordered]@{ names = @(); error = $null }
    # Listing the pipe file system does not open any pipe. Test-Path or Get-Item on a pipe would
    # connect to it and use up a server instance (docs/knowledge/windows-node.md#named-pipes), so they are never used here.
    # The session is long-lived: the type is compiled once and found by name afterwards.
    if ($null -eq ('CniDoctor.Pipes.Listing' -as [type])) { Add-Type -TypeDefinition $PIPE_LISTING }
    $section['names'] = @([CniDoctor.Pipes.Listing]::Names($PIPES['root']))
    return $section
}

# ---------------------------------------------------------------- services

# The executable a service's PathName starts with ("C:\Program Files\x\a.exe" --flag).
function Get-ServiceImage([string]$PathName) {
    if ([string]::IsNullOrEmpty($PathName)) { return $null }
    $t = $PathName.Trim()
    if ($t.StartsWith('"')) {
        $end = $t.IndexOf('"', 1)
        if ($end -gt 1) { return $t.Substring(1, $end - 1) }
        return $null
    }
    $exe = $t.IndexOf('.exe', [StringComparison]::OrdinalIgnoreCase)
    if ($exe -gt 0) { return $t.Substring(0, $exe + 4) }
    return $t.Split(' ')[0]
}

# How Windows starts a service, from its registry key (docs/knowledge/windows-node.md#how-the-kubelet-is-started):
# ImagePath under the key, and for an nssm-wrapped service (kubelet, kube-proxy, antrea-agent on
# many setups; its ImagePath is just nssm.exe) the real program and its arguments under
# Parameters: Application, AppParameters, AppDirectory, AppStderr. A key that does not exist is
# simply absent; one that cannot be read is reported with the reason (imagePathError,
# nssmError), so its facts read as unknown, never as "not there".
function Get-ServiceLaunch([string]$Name) {
    $base = 'HKLM:\SYSTEM\CurrentControlSet\Services\' + $Name
    $r = [ordered]@{ imagePath = $null; nssm = $null }
    try {
        $key = Get-ItemProperty -LiteralPath $base
        if ($null -ne $key.ImagePath) { $r['imagePath'] = [string]$key.ImagePath }
    } catch [System.Management.Automation.ItemNotFoundException] {
    } catch {
        $r['imagePathError'] = Get-ErrorText $_
    }
    try {
        $key = Get-ItemProperty -LiteralPath ($base + '\Parameters')
        if ($null -ne $key.Application) {
            $r['nssm'] = [ordered]@{
                application = [string]$key.Application
                parameters  = [string]$key.AppParameters
                directory   = [string]$key.AppDirectory
                stderr      = [string]$key.AppStderr
            }
        }
    } catch [System.Management.Automation.ItemNotFoundException] {
    } catch {
        $r['nssmError'] = Get-ErrorText $_
    }
    return $r
}

# Adds what Get-ServiceLaunch found to a service record.
function Add-ServiceLaunch($Item) {
    $launch = Get-ServiceLaunch ([string]$Item['name'])
    foreach ($k in @($launch.Keys)) { $Item[$k] = $launch[$k] }
}

function Get-ServiceSection($Names) {
    $section = [ordered]@{ source = 'Win32_Service'; items = @(); error = $null }
    $wanted = @{}
    foreach ($n in (Get-List $Names)) { $wanted[([string]$n).ToLowerInvariant()] = [string]$n }
    $seen = @{}
    $items = New-Object System.Collections.Generic.List[object]
    try {
        foreach ($s in @(Get-CimInstance -ClassName Win32_Service)) {
            $key = ([string]$s.Name).ToLowerInvariant()
            if (-not $wanted.ContainsKey($key)) { continue }
            $seen[$key] = $true
            $items.Add([ordered]@{
                    name      = [string]$s.Name
                    present   = $true
                    state     = [string]$s.State
                    startMode = [string]$s.StartMode
                    pathName  = [string]$s.PathName
                    # Win32_Service's ProcessId and ExitCode are uint32: [int] would throw above 2^31-1.
                    processId = [long]$s.ProcessId
                    exitCode  = [long]$s.ExitCode
                })
            Add-ServiceLaunch $items[$items.Count - 1]
        }
    } catch {
        # WMI can be broken on a damaged node; the service controller still answers.
        $section['source'] = 'Get-Service'
        $section['error'] = 'Win32_Service: ' + (Get-ErrorText $_)
        # One exact lookup per wanted name: a listing of all services makes PowerShell 7 write an
        # error for each service it may not query (WaaSMedicSvc, NPSMSvc_*), and stop at the first.
        $found = @(foreach ($n in @($wanted.Values)) { Get-Service -Name $n -ErrorAction SilentlyContinue })
        foreach ($s in $found) {
            $key = ([string]$s.Name).ToLowerInvariant()
            if (-not $wanted.ContainsKey($key) -or $seen.ContainsKey($key)) { continue }
            $seen[$key] = $true
            $items.Add([ordered]@{ name = [string]$s.Name; present = $true; state = [string]$s.Status })
            Add-ServiceLaunch $items[$items.Count - 1]
        }
    }
    foreach ($key in @($wanted.Keys)) {
        if (-not $seen.ContainsKey($key)) { $items.Add([ordered]@{ name = $wanted[$key]; present = $false }) }
    }
    $section['items'] = $items.ToArray()
    return $section
}

# ---------------------------------------------------------------- processes

function Get-ProcessSection($Names) {
    $section = [ordered]@{ items = @(); error = $null }
    $wanted = @{}
    foreach ($n in (Get-List $Names)) { $wanted[([string]$n).ToLowerInvariant()] = $true }
    $section['items'] = @(
        foreach ($p in @(Get-CimInstance -ClassName Win32_Process)) {
            if (-not $wanted.ContainsKey(([string]$p.Name).ToLowerInvariant())) { continue }
            [ordered]@{
                name           = [string]$p.Name
                pid            = [int]$p.ProcessId
                parentPid      = [int]$p.ParentProcessId
                commandLine    = $p.CommandLine
                executablePath = $p.ExecutablePath
            }
        }
    )
    return $section
}

# ---------------------------------------------------------------- versions

function Find-ProbeBinary($Probe, $Processes, $Services) {
    $exe = [string]$Probe.exe
    foreach ($p in @($Processes)) {
        if ($null -eq $p) { continue }
        $path = [string]$p['executablePath']
        if ($path -and ((Get-LeafName $path) -ieq $exe)) { return @($path, 'process') }
    }
    foreach ($s in @($Services)) {
        if ($null -eq $s) { continue }
        $candidates = @(Get-ServiceImage ([string]$s['pathName']))
        if ($null -ne $s['nssm']) { $candidates += [string]$s['nssm']['application'] }
        foreach ($candidate in $candidates) {
            if ($candidate -and ((Get-LeafName $candidate) -ieq $exe) -and [IO.File]::Exists((Get-IoPath $candidate))) { return @($candidate, 'service') }
        }
    }
    foreach ($c in @($Probe.candidates)) {
        $path = [string]$c
        if ((Test-LocalPath $path) -and [IO.File]::Exists((Get-IoPath $path))) { return @($path, 'default-path') }
    }
    return $null
}

function Get-VersionSection($Probes, $Processes, $Services, [int]$TimeoutMs, [bool]$RunCommands) {
    $section = [ordered]@{ items = @(); error = $null }
    $section['items'] = @(
        foreach ($probe in (Get-List $Probes)) {
            $item = [ordered]@{ component = [string]$probe.component; exe = [string]$probe.exe; path = $null; via = $null; error = $null }
            try {
                $found = Find-ProbeBinary $probe $Processes $Services
                if ($null -eq $found) {
                    $item['error'] = 'not found'
                } else {
                    $item['path'] = $found[0]
                    $item['via'] = $found[1]
                    $io = Get-IoPath $found[0]
                    $info = [System.Diagnostics.FileVersionInfo]::GetVersionInfo($io)
                    $item['fileVersion'] = $info.FileVersion
                    $item['productVersion'] = $info.ProductVersion
                    $arguments = @($probe.args | ForEach-Object { [string]$_ })
                    # Arguments are fixed flags like --version; anything else is refused, not quoted.
                    $safe = @($arguments | Where-Object { $_ -notmatch '^[A-Za-z0-9._=-]+$' }).Count -eq 0
                    if ($RunCommands -and $arguments.Count -gt 0 -and $safe) {
                        $r = Invoke-BoundedProcess $io $arguments $TimeoutMs
                        $item['timedOut'] = $r.timedOut
                        $item['exitCode'] = $r.exitCode
                        $item['stdout'] = Limit-Text $r.stdout 4096
                        $item['stderr'] = Limit-Text $r.stderr 4096
                    }
                }
            } catch {
                $item['error'] = Get-ErrorText $_
            }
            $item
        }
    )
    return $section
}

# ---------------------------------------------------------------- files and directories

# $Tail reads the last $MaxBytes instead of the first: a log's newest lines are the ones that
# explain a pod failing now.
function Read-NodePath([string]$Path, [bool]$WantContent, [long]$MaxBytes, [int]$MaxEntries, [bool]$Tail = $false) {
    $r = [ordered]@{ path = $Path; type = $null; error = $null }
    if (-not (Test-LocalPath $Path)) {
        $r['type'] = 'other'
        $r['error'] = 'refused: not a plain local drive path'
        return $r
    }
    $io = Get-IoPath $Path
    try {
        $attributes = [IO.File]::GetAttributes($io)
    } catch [IO.FileNotFoundException], [IO.DirectoryNotFoundException] {
        $r['type'] = 'missing'
        return $r
    } catch {
        $r['type'] = 'other'
        $r['error'] = Get-ErrorText $_
        return $r
    }
    if (($attributes -band [IO.FileAttributes]::ReparsePoint) -ne 0) {
        try { $r['linkTarget'] = [string](@((Get-Item -LiteralPath $io -Force).Target)[0]) } catch { }
    }
    try {
        if (($attributes -band [IO.FileAttributes]::Directory) -ne 0) {
            $r['type'] = 'dir'
            $names = New-Object System.Collections.Generic.List[string]
            foreach ($e in [IO.Directory]::EnumerateFileSystemEntries($io)) {
                if ($names.Count -ge $MaxEntries) { $r['entriesTruncated'] = $true; break }
                $names.Add([IO.Path]::GetFileName($e))
            }
            $r['entries'] = $names.ToArray()
            return $r
        }
        $r['type'] = 'file'
        $share = [IO.FileShare]::ReadWrite -bor [IO.FileShare]::Delete
        $fs = [IO.File]::Open($io, [IO.FileMode]::Open, [IO.FileAccess]::Read, $share)
        try {
            $r['size'] = $fs.Length
            if ($WantContent) {
                $n = [int][Math]::Min([long]$fs.Length, $MaxBytes)
                $start = 0L
                if ($Tail) {
                    $start = [long]$fs.Length - $n
                    [void]$fs.Seek($start, [IO.SeekOrigin]::Begin)
                    $r['tail'] = $true
                }
                $buffer = New-Object byte[] $n
                $read = 0
                while ($read -lt $n) {
                    $k = $fs.Read($buffer, $read, $n - $read)
                    if ($k -le 0) { break }
                    $read += $k
                }
                $r['contentBase64'] = [Convert]::ToBase64String($buffer, 0, $read)
                $r['truncated'] = ($fs.Length -gt $read)
            }
        } finally {
            $fs.Dispose()
        }
    } catch {
        $r['error'] = Get-ErrorText $_
    }
    return $r
}

function Test-NameSuffix([string]$Name, $Suffixes) {
    foreach ($s in @($Suffixes)) {
        if ($Name.EndsWith([string]$s, [StringComparison]::OrdinalIgnoreCase)) { return $true }
    }
    return $false
}

# A directory whose entries the probes will look at next (a CNI conf dir): list it, record every
# entry's type, and read the entries whose names end in one of $Suffixes, all in this one call.
# Other entries (plugin binaries, subfolders) are typed but not read.
function Read-DirectoryWithFiles([string]$Dir, $Suffixes, [long]$MaxBytes, [int]$MaxEntries) {
    $listing = Read-NodePath $Dir $false $MaxBytes $MaxEntries
    $found = New-Object System.Collections.Generic.List[object]
    $found.Add($listing)
    if ($listing['type'] -ne 'dir' -or $null -ne $listing['error']) { return $found.ToArray() }
    $base = $Dir.TrimEnd('\') + '\'
    foreach ($name in @($listing['entries'])) {
        $found.Add((Read-NodePath ($base + [string]$name) (Test-NameSuffix ([string]$name) $Suffixes) $MaxBytes $MaxEntries))
    }
    return $found.ToArray()
}

# The scripts a launch service runs and the file its stderr goes to (docs/knowledge/windows-node.md#how-the-kubelet-is-started):
# nssm runs powershell.exe with "-ExecutionPolicy Bypass -NoProfile C:\k\StartKubelet.ps1" in
# AppParameters, or a plain service's ImagePath names the script. When the kubelet crash-loops
# on a flag there is no process to read, and the script is where its command line lives, so it
# is read in this same call. Only plain local .ps1 paths are taken (a relative one against
# AppDirectory); main/probes/windows/launch.ts finds the same paths on the TypeScript side.
function Get-LaunchScriptPaths([string]$CommandLine, [string]$Directory) {
    $found = New-Object System.Collections.Generic.List[string]
    if ([string]::IsNullOrEmpty($CommandLine)) { return $found.ToArray() }
    foreach ($t in [regex]::Matches($CommandLine, '"[^"]*"|[^\s"]+')) {
        $token = $t.Value.Trim('"')
        foreach ($m in [regex]::Matches($token, '[A-Za-z]:\\[^"''<>|*?:\r\n]*?\.ps1(?=$|[\s''"};)])')) { $found.Add($m.Value) }
        if ($token -match '^[^\\/:"''<>|*?\s&{}]+\.ps1$' -and (Test-LocalPath $Directory)) {
            $found.Add($Directory.TrimEnd('\') + '\' + $token)
        }
    }
    return $found.ToArray()
}

function Get-LaunchFiles($Services, $Names) {
    $r = @{ scripts = @(); logs = @() }
    $wanted = @{}
    foreach ($n in (Get-List $Names)) { $wanted[([string]$n).ToLowerInvariant()] = $true }
    $scripts = New-Object System.Collections.Generic.List[string]
    $logs = New-Object System.Collections.Generic.List[string]
    foreach ($s in @($Services)) {
        if ($null -eq $s -or -not $wanted.ContainsKey(([string]$s['name']).ToLowerInvariant())) { continue }
        $lines = @(@([string]$s['imagePath'], [string]$s['pathName']) | ForEach-Object { @{ line = $_; dir = '' } })
        $nssm = $s['nssm']
        if ($null -ne $nssm) {
            $lines += @{ line = ('"' + [string]$nssm['application'] + '" ' + [string]$nssm['parameters']); dir = [string]$nssm['directory'] }
            if (Test-LocalPath ([string]$nssm['stderr'])) { $logs.Add([string]$nssm['stderr']) }
        }
        foreach ($l in $lines) {
            foreach ($p in @(Get-LaunchScriptPaths $l.line $l.dir)) {
                if ((Test-LocalPath $p) -and -not $scripts.Contains($p)) { $scripts.Add($p) }
            }
        }
    }
    $r['scripts'] = $scripts.ToArray()
    $r['logs'] = $logs.ToArray()
    return $r
}

function Get-FileSection($Paths, $Dirs, $ReadDirs, $Suffixes, $Tails, [long]$MaxBytes, [long]$MaxTailBytes, [int]$MaxEntries) {
    $section = [ordered]@{ items = @(); error = $null }
    $items = New-Object System.Collections.Generic.List[object]
    foreach ($p in (Get-List $Paths)) { $items.Add((Read-NodePath ([string]$p) $true $MaxBytes $MaxEntries)) }
    foreach ($d in (Get-List $Dirs)) { $items.Add((Read-NodePath ([string]$d) $false $MaxBytes $MaxEntries)) }
    foreach ($d in (Get-List $ReadDirs)) {
        foreach ($item in @(Read-DirectoryWithFiles ([string]$d) $Suffixes $MaxBytes $MaxEntries)) { $items.Add($item) }
    }
    foreach ($t in (Get-List $Tails)) { $items.Add((Read-NodePath ([string]$t) $true $MaxTailBytes $MaxEntries $true)) }
    $section['items'] = $items.ToArray()
    return $section
}

# ---------------------------------------------------------------- HNS

# Runs inside its own runspace (Invoke-InRunspace); the command name comes from the table below.
$HNS_QUERY = @'
param($ModulePath, $Command)
Import-Module -Name $ModulePath -ErrorAction Stop
& $Command
'@

$HNS_KINDS = [ordered]@{
    networks    = @{ cmdlet = 'Get-HnsNetwork'; hnsdiag = 'networks' }
    endpoints   = @{ cmdlet = 'Get-HnsEndpoint'; hnsdiag = 'endpoints' }
    namespaces  = @{ cmdlet = 'Get-HnsNamespace'; hnsdiag = 'namespaces' }
    policyLists = @{ cmdlet = 'Get-HnsPolicyList'; hnsdiag = 'loadbalancers' }
}

function Find-TrustedModule([string]$Name) {
    $m = @(Get-Module -ListAvailable -Name $Name | Where-Object { Test-TrustedModuleBase $_.ModuleBase } | Sort-Object Version -Descending)
    if ($m.Count -eq 0) { return $null }
    return $m[0]
}

# One HNS surface: query all four lists with its cmdlets, each under its own deadline.
function Read-HnsModule($Section, $Module, [string]$Source, [string]$Schema, [int]$TimeoutMs) {
    $Section['source'] = $Source
    $Section['schema'] = $Schema
    $Section['module'] = [ordered]@{ name = $Module.Name; version = [string]$Module.Version; path = $Module.Path }
    $ok = 0
    foreach ($kind in @($HNS_KINDS.Keys)) {
        $command = $Module.Name + '\' + $HNS_KINDS[$kind].cmdlet
        $r = Invoke-InRunspace $HNS_QUERY @($Module.Path, $command) $TimeoutMs
        $Section[$kind] = @($r.items)
        if ($null -ne $r.error) { $Section['errors'][$kind] = $r.error } else { $ok++ }
        if ($r.timedOut) { $Section['timedOut'] = $true }
    }
    return $ok
}

# The OEM code page of the node (the system locale's, as the registry keeps it): what a console
# program such as hnsdiag writes when its output is redirected (review C2; CreateNoWindow gives it
# a console of its own, in that code page, not this session's UTF-8). The culture's OEM code page
# where the registry cannot be read.
function Get-OemEncoding {
    try {
        $cp = (Get-ItemProperty -Path 'HKLM:\SYSTEM\CurrentControlSet\Control\Nls\CodePage' -Name OEMCP -ErrorAction Stop).OEMCP
        return [System.Text.Encoding]::GetEncoding([int]$cp)
    } catch {
        return [System.Text.Encoding]::GetEncoding([System.Globalization.CultureInfo]::CurrentCulture.TextInfo.OEMCodePage)
    }
}

# hnsdiag -d prints raw HNS JSON per object (docs/knowledge/windows-hns.md#hnsdiag). The text is returned as is; the TypeScript
# side extracts the objects, which is easier to get right and to test than doing it here.
function Read-Hnsdiag($Section, [string]$Exe, [int]$TimeoutMs, [long]$MaxChars) {
    $Section['source'] = 'hnsdiag'
    # No schema label: hnsdiag's namespaces have been seen in the v1 shape, but its load balancers
    # are HCN objects and may come in the v2 one; the normaliser tells each object by its fields.
    $Section['schema'] = $null
    $Section['raw'] = [ordered]@{}
    $ok = 0
    $oem = Get-OemEncoding
    foreach ($kind in @($HNS_KINDS.Keys)) {
        try {
            $r = Invoke-BoundedProcess $Exe @('list', $HNS_KINDS[$kind].hnsdiag, '-d') $TimeoutMs $oem
            if ($r.timedOut) {
                $Section['errors'][$kind] = ('hnsdiag timed out after {0} ms' -f $TimeoutMs)
                $Section['timedOut'] = $true
            } elseif ($r.exitCode -ne 0) {
                $Section['errors'][$kind] = ('hnsdiag exit code {0}: {1}' -f $r.exitCode, (Limit-Text $r.stderr 2000))
            } else {
                $Section['raw'][$kind] = Limit-Text $r.stdout $MaxChars
                $ok++
            }
        } catch {
            $Section['errors'][$kind] = Get-ErrorText $_
        }
    }
    return $ok
}

# HNS's own JSON text, the way hns.psm1 asks for it (vmcompute.dll HNSCall on the v1 paths, KB
# docs/knowledge/windows-hns.md#creating-and-removing-networks). The text goes into the document as a string, unparsed: re-serialising thousands of HNS
# objects with ConvertTo-Json costs seconds, and minutes in Windows PowerShell 5.1 (docs/knowledge/windows-hns.md#getting-json-out-reliably; see
# `npm run bench`), while passing a string through costs a copy. The TypeScript side parses it.
# HNSCall returns an HRESULT (hcsshim internal/hns/zsyscall_windows.go: negative = failed); a
# failed call leaves no answer, so the code is the only thing that says why (HNS stopped, access
# denied when not elevated, RPC failure).
$HNSCALL_QUERY = @'
param($Path)
$response = $null
$hr = [CniDoctor.Hns.NativeMethods]::HNSCall('GET', $Path, '', [ref]$response)
if ($hr -lt 0) { throw ('HNSCall GET {0} failed: HRESULT 0x{1:X8}' -f $Path, $hr) }
$response
'@
# Namespaces too: HNS v1 serves them on /namespaces (hcsshim internal/hns/namespace.go).
$HNSCALL_PATHS = [ordered]@{ networks = '/networks'; endpoints = '/endpoints'; namespaces = '/namespaces'; policyLists = '/policylists' }

function Initialize-HnsCall {
    if ($null -ne ('CniDoctor.Hns.NativeMethods' -as [type])) { return }
    $signature = @'
[DllImport("vmcompute.dll")]
public static extern int HNSCall([MarshalAs(UnmanagedType.LPWStr)] string method, [MarshalAs(UnmanagedType.LPWStr)] string path, [MarshalAs(UnmanagedType.LPWStr)] string request, [MarshalAs(UnmanagedType.LPWStr)] out string response);
'@
    # The same type repair-step.ps1 defines; the session is long-lived, so it is compiled once.
    [void](Add-Type -MemberDefinition $signature -Namespace 'CniDoctor.Hns' -Name 'NativeMethods' -PassThru)
}

# All four lists as HNS's JSON text, through HNS v1's own paths.
function Read-HnsCall($Section, [int]$TimeoutMs, [long]$MaxChars) {
    $Section['source'] = 'HNSCall'
    $Section['schema'] = 'v1'
    $Section['raw'] = [ordered]@{}
    Initialize-HnsCall
    $ok = 0
    foreach ($kind in @($HNSCALL_PATHS.Keys)) {
        $r = Invoke-InRunspace $HNSCALL_QUERY @($HNSCALL_PATHS[$kind]) $TimeoutMs
        if ($r.timedOut) { $Section['timedOut'] = $true }
        $text = [string](@($r.items) -join '')
        if ($null -ne $r.error) {
            $Section['errors'][$kind] = $r.error
        } elseif ([string]::IsNullOrEmpty($text)) {
            $Section['errors'][$kind] = 'HNS gave no answer'
        } else {
            $Section['raw'][$kind] = Limit-Text $text $MaxChars
            $ok++
        }
    }
    return $ok
}

function New-HnsSection {
    return [ordered]@{
        source = $null; schema = $null; module = $null
        networks = @(); endpoints = @(); namespaces = @(); policyLists = @()
        raw = $null; errors = [ordered]@{}; attempts = @(); timedOut = $false
    }
}

# Order: HNS's own JSON through HNSCall (v1 schema, every Windows with HNS; no module at all),
# then the built-in HostNetworkingService module (v1 schema, 1709 and later), then hnsdiag's
# JSON, then the PSGallery HNS module (v2 schema). Each is loaded from a trusted folder by full
# path and its commands are called module-qualified, so an hns.psm1/hns.v2.psm1 imported
# elsewhere cannot shadow them and silently change the schema (docs/knowledge/windows-hns.md#three-powershell-surfaces "Shadowing hazard").
function Get-HnsSection([string]$Preferred, [int]$TimeoutMs, [long]$MaxRawChars) {
    $attempts = New-Object System.Collections.Generic.List[object]
    $order = @('hnscall', 'builtin', 'hnsdiag', 'v2')
    if ($Preferred -and $Preferred -ne 'auto') { $order = @($Preferred) }
    foreach ($way in $order) {
        $section = New-HnsSection
        $ok = 0
        try {
            if ($way -eq 'hnscall') {
                $ok = Read-HnsCall $section $TimeoutMs $MaxRawChars
            } elseif ($way -eq 'builtin') {
                $m = Find-TrustedModule 'HostNetworkingService'
                if ($null -eq $m) { $attempts.Add([ordered]@{ source = 'HostNetworkingService'; result = 'not installed' }); continue }
                $ok = Read-HnsModule $section $m 'HostNetworkingService' 'v1' $TimeoutMs
            } elseif ($way -eq 'hnsdiag') {
                $exe = Join-Path $env:SystemRoot 'System32\hnsdiag.exe'
                if (-not [IO.File]::Exists($exe)) { $attempts.Add([ordered]@{ source = 'hnsdiag'; result = 'not installed' }); continue }
                $ok = Read-Hnsdiag $section $exe $TimeoutMs $MaxRawChars
            } elseif ($way -eq 'v2') {
                $m = Find-TrustedModule 'HNS'
                if ($null -eq $m) { $attempts.Add([ordered]@{ source = 'HNS'; result = 'not installed' }); continue }
                $ok = Read-HnsModule $section $m 'HNS' 'v2' $TimeoutMs
            } else {
                $attempts.Add([ordered]@{ source = $way; result = 'unknown source' })
                continue
            }
        } catch {
            $section['errors']['source'] = Get-ErrorText $_
        }
        $attempts.Add([ordered]@{ source = $section['source']; result = ('{0} of 4 lists read' -f $ok) })
        # A surface that answered at least one list is the one; a hang is not retried elsewhere
        # because the next surface talks to the same (hung) HNS service.
        if ($ok -gt 0 -or $section['timedOut']) {
            $section['attempts'] = $attempts.ToArray()
            return $section
        }
    }
    $section = New-HnsSection
    $section['errors']['source'] = 'no HNS surface answered'
    $section['attempts'] = $attempts.ToArray()
    return $section
}

# ---------------------------------------------------------------- main

function Invoke-Section([scriptblock]$Body) {
    $watch = [System.Diagnostics.Stopwatch]::StartNew()
    try {
        $r = & $Body
        # A stray pipeline output in a section would turn its result into an array.
        if ($r -is [array]) { $r = $r[-1] }
        if ($r -isnot [System.Collections.IDictionary]) { $r = [ordered]@{ error = 'section returned no result' } }
    } catch {
        $r = [ordered]@{ error = (Get-ErrorText $_) }
    }
    $r['ms'] = $watch.ElapsedMilliseconds
    return $r
}

# Limits come from the caller; a missing or zero one falls back to a safe default.
function Get-Limit($Value, [long]$Default) {
    $n = 0L
    if ($null -ne $Value -and [long]::TryParse([string]$Value, [ref]$n) -and $n -gt 0) { return $n }
    return $Default
}
$hnsTimeoutMs = [int](Get-Limit $in.hnsTimeoutMs 120000)
$execTimeoutMs = [int](Get-Limit $in.execTimeoutMs 10000)
$maxFileBytes = Get-Limit $in.maxFileBytes 1048576
$maxDirEntries = [int](Get-Limit $in.maxDirEntries 5000)
$maxHnsRawChars = Get-Limit $in.maxHnsRawChars 67108864

Set-NodeRoot $in.nodeRoot
$out = [ordered]@{ format = $FORMAT; startedAt = [DateTime]::UtcNow.ToString('o') }
$maxTailBytes = Get-Limit $in.maxTailBytes 4194304

# A follow-up call for paths discovered during a scan asks for 'files' only: HNS, services and
# processes were read once, at the start of the scan, and are not read again.
$sections = @{}
foreach ($name in @($in.sections)) { if ($null -ne $name) { $sections[[string]$name] = $true } }
function Test-Section([string]$Name) {
    return ($null -eq $in.sections) -or $sections.ContainsKey($Name)
}
function Get-SectionItems($Section) {
    if ($null -eq $Section) { return @() }
    return @($Section['items'])
}

if (Test-Section 'host') { $out['host'] = Invoke-Section { Get-HostSection } }
if (Test-Section 'pipes') { $out['pipes'] = Invoke-Section { Get-PipeSection } }
if (Test-Section 'services') { $out['services'] = Invoke-Section { Get-ServiceSection $in.services } }
if (Test-Section 'processes') { $out['processes'] = Invoke-Section { Get-ProcessSection $in.processNames } }
if (Test-Section 'hns') { $out['hns'] = Invoke-Section { Get-HnsSection ([string]$in.hnsSource) $hnsTimeoutMs $maxHnsRawChars } }
if (Test-Section 'versions') {
    $out['versions'] = Invoke-Section {
        Get-VersionSection $in.versionProbes (Get-SectionItems $out['processes']) (Get-SectionItems $out['services']) $execTimeoutMs ($in.runVersionCommands -eq $true)
    }
}
if (Test-Section 'files') {
    $out['files'] = Invoke-Section {
        # Scripts and stderr logs of the launch services found above join the caller's lists.
        $launch = Get-LaunchFiles (Get-SectionItems $out['services']) $in.launchServices
        $paths = @(Get-List $in.paths) + @($launch['scripts'] | Where-Object { @(Get-List $in.paths) -notcontains $_ })
        $tails = @(Get-List $in.tails) + @($launch['logs'] | Where-Object { @(Get-List $in.tails) -notcontains $_ })
        Get-FileSection $paths $in.dirs $in.readDirs $in.readDirSuffixes $tails $maxFileBytes $maxTailBytes $maxDirEntries
    }
}
$out['finishedAt'] = [DateTime]::UtcNow.ToString('o')

if ($PSVersionTable.PSVersion.Major -lt 6) {
    # Windows PowerShell 5.1 serialises arrays that carry extended type data as
    # {"value":[...],"Count":n}; removing that type data for this shell gives plain arrays.
    Remove-TypeData -TypeName System.Array -ErrorAction SilentlyContinue
}
try {
    # Depth 20 as Microsoft's collector uses: HNS nests 4-6 levels below our own 3, and 5.1
    # silently flattens anything deeper into type-name strings (docs/knowledge/windows-hns.md#getting-json-out-reliably).
    $json = ConvertTo-Json -InputObject $out -Depth 20 -Compress
} catch {
    $fallback = [ordered]@{ format = $FORMAT; startedAt = $out['startedAt']; error = ('serialisation failed: ' + (Get-ErrorText $_)) }
    $json = ConvertTo-Json -InputObject $fallback -Compress
}
$json = [regex]::Replace($json, '[^\x00-\x7F]', { param($m) '\u{0:x4}' -f [int][char]$m.Value })
[Console]::Out.Write($json)
[Console]::Out.WriteLine()
