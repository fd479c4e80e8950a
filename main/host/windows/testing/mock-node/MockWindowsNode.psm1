# A Windows node for collect.ps1 and repair-step.ps1 on a machine without Windows (the tests, the
# benchmark, the remote-over-SSH test). Only what Linux cannot have is replaced; everything else
# the scripts do runs for real:
# - HNS: the HostNetworkingService (v1) and/or HNS (v2) modules below mock-node/, found through
#   PSModulePath in folders the collection trusts ($env:SystemRoot, $env:ProgramFiles point here),
#   returning the node's lists (real HNS samples) parsed once and kept in the AppDomain, which the
#   script's own runspaces share.
# - WMI (Get-CimInstance Win32_Service / Win32_Process), the service controller (Get-Service,
#   Start-Service, Restart-Service) and the HKLM registry: global functions of the same names,
#   which PowerShell prefers to cmdlets.
# Files are NOT mocked: the caller maps the node's C: drive to a real folder with collect.ps1's
# nodeRoot input, and the script reads it with its own code. The pipe listing's folder is mapped
# the same way; only the Win32 FindFirstFileW/FindNextFileW type is replaced (PipeListingMock.ps1).
# - Get-Service writes the errors PowerShell 7's does: listing all services, the "cannot be
#   queried" PermissionDenied error at the first service marked queryDenied (WaaSMedicSvc and
#   friends on a real node), where the listing stops; -Name for a missing service, "Cannot find
#   any service with service name".
# - A broken WMI (wmiBroken) throws a CimException as Get-CimInstance does (HResult 0x80131500,
#   not the WMI code).
#
# The spec (JSON): { hnsModules: ['builtin'|'v2'...], hns: {networks, endpoints, namespaces,
# policyLists} | hnsFile: path, hnsCall: false (no vmcompute.dll HNSCall), fail: {kind: message},
# hang: {kind: ms}, hnsCallHresult: {path: HRESULT}, hnsCallNoAnswer: [path], services: [Win32_Service
# fields, queryDenied: bool], processes: [Win32_Process fields], registry: {'HKLM:\...': {name: value} | 'denied'},
# wmiBroken: bool }

. (Join-Path $PSScriptRoot 'HnsCallMock.ps1')
. (Join-Path $PSScriptRoot 'PipeListingMock.ps1')

$MOCK_GET_SERVICE = @'
[CmdletBinding()]
param([string[]]$Name)
$n = [AppDomain]::CurrentDomain.GetData('cni-doctor.mock-node')
$selected = @()
if ($null -eq $Name) {
    foreach ($s in $n.services) {
        if ($s.queryDenied -eq $true) {
            # PowerShell 7's text (PowerShell/PowerShell#20529; its exception type,
            # ServiceCommandException, does not exist on Linux), and the listing ends there
            # (#19373: "enumeration stops at the problematic service").
            $e = New-Object System.InvalidOperationException ("Service '{0} ({0})' cannot be queried due to the following error: PermissionDenied" -f $s.Name)
            $PSCmdlet.WriteError((New-Object System.Management.Automation.ErrorRecord $e, 'CouldNotGetServiceInfo,Microsoft.PowerShell.Commands.GetServiceCommand', 'PermissionDenied', $s.Name))
            break
        }
        $selected += $s
    }
} else {
    foreach ($want in $Name) {
        $hit = @($n.services | Where-Object { [string]$_.Name -like $want })
        if ($hit.Count -eq 0) {
            $e = New-Object System.InvalidOperationException ("Cannot find any service with service name '{0}'." -f $want)
            $PSCmdlet.WriteError((New-Object System.Management.Automation.ErrorRecord $e, 'NoServiceFoundForGivenName,Microsoft.PowerShell.Commands.GetServiceCommand', 'ObjectNotFound', $want))
            continue
        }
        $selected += $hit
    }
}
foreach ($s in $selected) {
    $o = [pscustomobject]@{ Name = [string]$s.Name; Status = [string]$s.State }
    $o.PSObject.TypeNames.Insert(0, 'CniDoctor.MockService')
    $o
}
'@

function Install-MockWindowsNode {
    param([Parameter(Mandatory)][string]$SpecPath)
    $spec = [IO.File]::ReadAllText($SpecPath) | ConvertFrom-Json
    if ($null -ne $spec.hnsFile) {
        $hnsText = [IO.File]::ReadAllText([string]$spec.hnsFile)
        $hns = $hnsText | ConvertFrom-Json
        # A sample fixture holds its lists under "hns" (fixtures/windows/samples).
        if ($null -ne $hns.hns) { $hns = $hns.hns; $hnsText = ConvertTo-Json -InputObject $hns -Depth 30 -Compress }
    } else {
        $hns = $spec.hns
        $hnsText = ConvertTo-Json -InputObject $hns -Depth 30 -Compress
    }
    # HNSCall's answers: the lists' JSON text in HNS's envelope, cut out of the spec's text as is.
    $call = [CniDoctor.Hns.NativeMethods]
    $call::Handler = $null
    $call::Calls.Clear()
    $call::Answers.Clear()
    $call::Delays.Clear()
    $call::Hresults.Clear()
    $call::NoAnswer.Clear()
    $call::Available = ($spec.hnsCall -ne $false)
    if ($null -ne $spec.hnsCallHresult) { foreach ($p in $spec.hnsCallHresult.PSObject.Properties) { $call::Hresults[$p.Name] = [int]$p.Value } }
    foreach ($p in @($spec.hnsCallNoAnswer)) { if ($null -ne $p) { [void]$call::NoAnswer.Add([string]$p) } }
    $doc = [System.Text.Json.JsonDocument]::Parse($hnsText)
    $paths = @{ networks = '/networks'; endpoints = '/endpoints'; namespaces = '/namespaces'; policyLists = '/policylists' }
    foreach ($kind in $paths.Keys) {
        $list = '[]'
        $el = New-Object System.Text.Json.JsonElement
        if ($doc.RootElement.ValueKind -eq 'Object' -and $doc.RootElement.TryGetProperty($kind, [ref]$el) -and $el.ValueKind -eq 'Array') { $list = $el.GetRawText() }
        $answer = '{"Success":true,"Output":' + $list + '}'
        if ($null -ne $spec.fail -and $null -ne $spec.fail.$kind) { $answer = ConvertTo-Json -Compress -InputObject ([ordered]@{ Success = $false; Error = [string]$spec.fail.$kind; ErrorCode = 2147942405 }) }
        $call::Answers[$paths[$kind]] = $answer
        if ($null -ne $spec.hang -and $null -ne $spec.hang.$kind) { $call::Delays[$paths[$kind]] = [int]$spec.hang.$kind }
    }
    $doc.Dispose()
    $node = [pscustomobject]@{
        hns       = $hns
        fail      = $spec.fail
        hang      = $spec.hang
        services  = @($spec.services | Where-Object { $null -ne $_ })
        processes = @($spec.processes | Where-Object { $null -ne $_ })
        registry  = $spec.registry
        wmiBroken = ($spec.wmiBroken -eq $true)
    }
    [AppDomain]::CurrentDomain.SetData('cni-doctor.mock-node', $node)

    $env:SystemRoot = Join-Path $PSScriptRoot 'SystemRoot'
    $env:ProgramFiles = Join-Path $PSScriptRoot 'ProgramFiles'
    $dirs = @()
    foreach ($m in @($spec.hnsModules)) {
        if ($m -eq 'builtin') { $dirs += Join-Path $env:SystemRoot 'System32/WindowsPowerShell/v1.0/Modules' }
        if ($m -eq 'v2') { $dirs += Join-Path $env:ProgramFiles 'WindowsPowerShell/Modules' }
    }
    # Only the installed HNS surfaces; the shell's own modules stay reachable.
    $dirs += Join-Path $PSHOME 'Modules'
    $env:PSModulePath = $dirs -join [IO.Path]::PathSeparator

    function global:Get-CimInstance {
        param([string]$ClassName)
        $n = [AppDomain]::CurrentDomain.GetData('cni-doctor.mock-node')
        if ($n.wmiBroken) { throw (New-Object Microsoft.Management.Infrastructure.CimException 'Invalid class ') }
        if ($ClassName -eq 'Win32_Service') { return $n.services }
        if ($ClassName -eq 'Win32_Process') { return $n.processes }
        throw ('mock node: no class {0}' -f $ClassName)
    }
    # Not a module function: its script block is unbound, so it runs in the caller's session state
    # and honours the caller's $ErrorActionPreference, as the real cmdlet does (a module's
    # functions would see only the module's and the global one).
    Set-Item -Path function:global:Get-Service -Value ([ScriptBlock]::Create($MOCK_GET_SERVICE))
    function global:Start-Service {
        param([Parameter(ValueFromPipeline)]$InputObject)
        process { Set-MockServiceState $InputObject.Name 'Running' 'Start-Service' }
    }
    function global:Restart-Service {
        param([Parameter(ValueFromPipeline)]$InputObject, [switch]$Force)
        process { Set-MockServiceState $InputObject.Name 'Running' 'Restart-Service' }
    }
    function global:Get-ItemProperty {
        param([string]$LiteralPath)
        if ($LiteralPath -notmatch '^HKLM:\\') { return Microsoft.PowerShell.Management\Get-ItemProperty -LiteralPath $LiteralPath }
        $n = [AppDomain]::CurrentDomain.GetData('cni-doctor.mock-node')
        $key = $null
        if ($null -ne $n.registry) { $key = $n.registry.PSObject.Properties[$LiteralPath] }
        if ($null -eq $key) {
            throw (New-Object System.Management.Automation.ItemNotFoundException ("Cannot find path '{0}' because it does not exist." -f $LiteralPath))
        }
        # A key given as the string 'denied' refuses to be read, as a key with a restrictive ACL does.
        if ($key.Value -is [string] -and $key.Value -eq 'denied') {
            throw (New-Object System.Security.SecurityException 'Requested registry access is not allowed.')
        }
        return $key.Value
    }
}

# What the service-control mocks did, in order, for the repair tests.
function Get-MockServiceLog {
    $log = [AppDomain]::CurrentDomain.GetData('cni-doctor.mock-service-log')
    if ($null -eq $log) { return @() }
    return $log.ToArray()
}

function Set-MockServiceState([string]$Name, [string]$State, [string]$Action) {
    $log = [AppDomain]::CurrentDomain.GetData('cni-doctor.mock-service-log')
    if ($null -eq $log) {
        $log = New-Object System.Collections.Generic.List[string]
        [AppDomain]::CurrentDomain.SetData('cni-doctor.mock-service-log', $log)
    }
    $log.Add(('{0} {1}' -f $Action, $Name))
    $n = [AppDomain]::CurrentDomain.GetData('cni-doctor.mock-node')
    foreach ($s in $n.services) { if ($s.Name -ieq $Name) { $s.State = $State } }
}

function Uninstall-MockWindowsNode {
    [AppDomain]::CurrentDomain.SetData('cni-doctor.mock-node', $null)
    [AppDomain]::CurrentDomain.SetData('cni-doctor.mock-service-log', $null)
    [CniDoctor.Hns.NativeMethods]::Handler = $null
    [CniDoctor.Hns.NativeMethods]::Answers.Clear()
    foreach ($f in 'Get-CimInstance', 'Get-Service', 'Start-Service', 'Restart-Service', 'Get-ItemProperty') {
        Remove-Item -LiteralPath ('function:global:' + $f) -ErrorAction SilentlyContinue
    }
}

Export-ModuleMember -Function Install-MockWindowsNode, Uninstall-MockWindowsNode, Get-MockServiceLog, Set-MockServiceState, Enable-MockHnsCallWrites, Get-MockHnsAnswer
