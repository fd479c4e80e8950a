# cni-doctor: one allow-listed repair step on a Windows node (shared/model/repair.ts PowerShellCmdlet).
#
# build-repair-script.ts puts exactly one line in front of this file:
#   $in = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('<b64>')) | ConvertFrom-Json
# $in.cmdlet names the step and $in.params holds its parameters. Every value the caller chooses
# (a network name, address prefixes, endpoint IDs, a service name) arrives through $in as data
# and is never part of this script's code; each step is a fixed branch below, not a command
# assembled from text.
#
# Rules this script keeps:
# - HNS is called the way hns.psm1 calls it (vmcompute.dll HNSCall on the HNS v1 paths). The
#   built-in HostNetworkingService module has no New-HnsNetwork, and importing an hns.psm1 from
#   wherever a setup script left it would run code the doctor does not control
#   (docs/knowledge/windows-hns.md#three-powershell-surfaces, #creating-and-removing-networks).
# - Everything a step can check before it changes anything is checked first (each endpoint is
#   looked up and guarded before the first is removed); a step that cannot do its job throws.
#   The session reports a throw as a failed step (stderr) and the repair engine rolls back.
# - Endpoints are removed by exact ID only, never by name pattern, and never a remote endpoint,
#   a host endpoint (*_ep) or kube-proxy's source VIP (main/rules/windows/endpoint-stale.ts).
# - Output is one line of JSON on stdout saying what was done (ASCII only).
# - Runs on Windows PowerShell 5.1 and PowerShell 7.

Set-StrictMode -Off
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
$WarningPreference = 'SilentlyContinue'
$VerbosePreference = 'SilentlyContinue'

$GUID = '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'
$SERVICE_NAME = '^[A-Za-z0-9][A-Za-z0-9@._-]{0,127}$'
$OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
$IPV4 = '^' + $OCTET + '(\.' + $OCTET + '){3}$'
$IPV4_PREFIX = '^' + $OCTET + '(\.' + $OCTET + '){3}/([0-9]|[12][0-9]|3[0-2])$'

# ---------------------------------------------------------------- HNS

function Get-HnsApi {
    $type = 'CniDoctor.Hns.NativeMethods' -as [type]
    if ($null -eq $type) {
        $signature = @'
[DllImport("vmcompute.dll")]
public static extern int HNSCall([MarshalAs(UnmanagedType.LPWStr)] string method, [MarshalAs(UnmanagedType.LPWStr)] string path, [MarshalAs(UnmanagedType.LPWStr)] string request, [MarshalAs(UnmanagedType.LPWStr)] out string response);
'@
        # The session is long-lived: the type is compiled once and found by name afterwards.
        $type = Add-Type -MemberDefinition $signature -Namespace 'CniDoctor.Hns' -Name 'NativeMethods' -PassThru
    }
    return $type
}

# One HNS v1 call, returning HNS's envelope {Success, Output | Error, ErrorCode}. HNSCall itself
# returns an HRESULT (hcsshim internal/hns/zsyscall_windows.go): a negative one means HNS was not
# reached (service stopped, access denied, RPC failure) and there is no envelope, so the code is
# thrown as the reason.
function Invoke-HnsCall([string]$Method, [string]$Path, [string]$Body) {
    $api = Get-HnsApi
    $response = $null
    $hr = $api::HNSCall($Method, $Path, $Body, [ref]$response)
    if ($hr -lt 0) { throw ('HNS {0} {1} failed: HRESULT 0x{2:X8}' -f $Method, $Path, $hr) }
    if ([string]::IsNullOrEmpty($response)) { throw ('HNS {0} {1}: no answer' -f $Method, $Path) }
    return ($response | ConvertFrom-Json)
}

# One HNS v1 call. Returns its Output; throws HNS's own error text and code (docs/knowledge/windows-hns.md#creating-and-removing-networks error
# envelope) so the failure names the HRESULT, which is not localised.
function Invoke-Hns([string]$Method, [string]$Path, [string]$Body) {
    $answer = Invoke-HnsCall $Method $Path $Body
    if ($answer.Success -eq $false -or $answer.Error) {
        throw ('HNS {0} {1} failed: {2} (error code {3})' -f $Method, $Path, $answer.Error, $answer.ErrorCode)
    }
    return $answer.Output
}

# HNS's answer for an ID it does not have: "Element not found." (ERROR_NOT_FOUND as an HRESULT).
$HNS_NOT_FOUND = 2147943568

# A parameter as a list of strings (a single value, an array, or nothing). Callers wrap the call
# in @(): PowerShell returns a one-item list from a function as the bare item.
function Get-Strings($Value) {
    return @(@($Value) | Where-Object { $null -ne $_ } | ForEach-Object { [string]$_ })
}

function New-NatNetwork($P) {
    $name = [string]$P.Name
    if ([string]$P.Type -ne 'NAT') { throw 'only NAT networks are created by this step' }
    if ($name.Length -lt 1 -or $name.Length -gt 128 -or $name.IndexOf([char]0) -ge 0) { throw 'the network name is empty, too long or holds NUL' }
    $prefixes = @(Get-Strings $P.AddressPrefix)
    $gateways = @(Get-Strings $P.Gateway)
    foreach ($x in $prefixes) { if ($x -notmatch $IPV4_PREFIX) { throw ('not an IPv4 address prefix: {0}' -f $x) } }
    foreach ($x in $gateways) { if ($x -notmatch $IPV4) { throw ('not an IPv4 gateway address: {0}' -f $x) } }
    if ($gateways.Count -gt $prefixes.Count) { throw 'a gateway was given without an address prefix' }
    foreach ($n in @(Invoke-Hns 'GET' '/networks' '')) {
        if ([string]$n.Name -ieq $name) { throw ('an HNS network named {0} already exists ({1}); nothing was created' -f $name, $n.ID) }
    }
    # The body hns.psm1's New-HnsNetwork posts (docs/knowledge/windows-hns.md#creating-and-removing-networks): Type, Name, Subnets[AddressPrefix, GatewayAddress].
    $body = [ordered]@{ Type = 'NAT'; Name = $name }
    if ($prefixes.Count -gt 0) {
        $subnets = New-Object System.Collections.Generic.List[object]
        for ($i = 0; $i -lt $prefixes.Count; $i++) {
            $subnet = [ordered]@{ AddressPrefix = $prefixes[$i] }
            if ($i -lt $gateways.Count) { $subnet['GatewayAddress'] = $gateways[$i] }
            $subnets.Add($subnet)
        }
        $body['Subnets'] = $subnets.ToArray()
    }
    $created = Invoke-Hns 'POST' '/networks' (ConvertTo-Json -InputObject $body -Depth 5 -Compress)
    return [ordered]@{ step = 'New-HnsNetwork'; id = [string]$created.ID; name = [string]$created.Name }
}

# Undo of New-HnsNetwork: exactly the network it created (by ID), and only while it still has the
# name it was created with.
function Remove-NatNetwork($P) {
    $id = [string]$P.Id
    $name = [string]$P.Name
    if ($id -notmatch $GUID) { throw ('not a network ID: {0}' -f $id) }
    $found = $null
    foreach ($n in @(Invoke-Hns 'GET' '/networks' '')) { if ([string]$n.ID -ieq $id) { $found = $n } }
    if ($null -eq $found) { return [ordered]@{ step = 'Remove-HnsNetwork'; id = $id; removed = $false } }
    if ([string]$found.Name -ine $name) { throw ('network {0} is now named {1}, not {2}; it was not removed' -f $id, $found.Name, $name) }
    [void](Invoke-Hns 'DELETE' ('/networks/' + $id) '')
    return [ordered]@{ step = 'Remove-HnsNetwork'; id = $id; removed = $true }
}

function Test-ProtectedEndpoint($Endpoint) {
    $n = [string]$Endpoint.Name
    return ($Endpoint.IsRemoteEndpoint -eq $true) -or ($n -match '_ep$') -or ($n -match 'source.?vip')
}

function Remove-Endpoints($P) {
    $ids = @(Get-Strings $P.Id)
    if ($ids.Count -eq 0) { throw 'no endpoint IDs were given' }
    foreach ($id in $ids) { if ($id -notmatch $GUID) { throw ('not an endpoint ID: {0}' -f $id) } }
    $absent = New-Object System.Collections.Generic.List[string]
    $targets = New-Object System.Collections.Generic.List[string]
    foreach ($id in $ids) {
        # Each endpoint by its ID (GET /endpoints/<id>, as hcsshim's HNSEndpointRequest asks): a
        # node with thousands of remote endpoints would otherwise send tens of MB of JSON through
        # 5.1's ConvertFrom-Json within the repair's deadline.
        $answer = Invoke-HnsCall 'GET' ('/endpoints/' + $id) ''
        if ($answer.Success -eq $false -or $answer.Error) {
            if ([string]$answer.ErrorCode -eq [string]$HNS_NOT_FOUND) { $absent.Add($id); continue }
            throw ('HNS GET /endpoints/{0} failed: {1} (error code {2}); nothing was removed' -f $id, $answer.Error, $answer.ErrorCode)
        }
        $e = $answer.Output
        if ($null -eq $e -or [string]$e.ID -ine $id) { $absent.Add($id); continue }
        if (Test-ProtectedEndpoint $e) { throw ('endpoint {0} ({1}) is a remote, host or source-VIP endpoint; nothing was removed' -f $id, $e.Name) }
        $targets.Add($id)
    }
    $removed = New-Object System.Collections.Generic.List[string]
    foreach ($id in $targets) {
        try {
            [void](Invoke-Hns 'DELETE' ('/endpoints/' + $id) '')
        } catch {
            throw ('removed {0} of {1} endpoint(s) [{2}]; removing {3} failed: {4}' -f $removed.Count, $targets.Count, ($removed -join ', '), $id, $_.Exception.Message)
        }
        $removed.Add($id)
    }
    return [ordered]@{ step = 'Remove-HnsEndpoint'; removed = $removed.ToArray(); absent = $absent.ToArray() }
}

# ---------------------------------------------------------------- services

# One service by its exact name. Get-Service without -Name would list every service, and
# PowerShell 7 on a node writes an error for each it may not query (WaaSMedicSvc, NPSMSvc_*:
# PermissionDenied even elevated), which $ErrorActionPreference = 'Stop' turns into a failed
# step. $SERVICE_NAME admits no wildcard character, so -Name is exact; -Name also matches a display
# name, hence the filter on Name.
function Get-ExactService([string]$Name) {
    if ($Name -notmatch $SERVICE_NAME) { throw ('not a service name: {0}' -f $Name) }
    $lookup = $null
    $found = @(Get-Service -Name $Name -ErrorAction SilentlyContinue -ErrorVariable lookup | Where-Object { $_.Name -ieq $Name })
    if ($found.Count -ne 1) {
        $why = ''
        if (@($lookup).Count -gt 0) { $why = ': ' + [string]@($lookup)[0] }
        throw ('service {0} does not exist{1}' -f $Name, $why)
    }
    return $found[0]
}

function Start-ExactService([string]$Name) {
    $service = Get-ExactService $Name
    $was = [string]$service.Status
    if ($was -ne 'Running') { $service | Start-Service }
    return [ordered]@{ step = 'Start-Service'; name = $service.Name; was = $was }
}

function Restart-ExactService([string]$Name) {
    $service = Get-ExactService $Name
    $was = [string]$service.Status
    $service | Restart-Service -Force
    return [ordered]@{ step = 'Restart-Service'; name = $service.Name; was = $was }
}

# ---------------------------------------------------------------- main

if ($null -eq $in -or $null -eq $in.params) { throw 'no repair step was given' }
$step = [string]$in.cmdlet
if ($step -ceq 'New-HnsNetwork') {
    $result = New-NatNetwork $in.params
} elseif ($step -ceq 'Remove-HnsNetwork') {
    $result = Remove-NatNetwork $in.params
} elseif ($step -ceq 'Remove-HnsEndpoint') {
    $result = Remove-Endpoints $in.params
} elseif ($step -ceq 'Start-Service') {
    $result = Start-ExactService ([string]$in.params.Name)
} elseif ($step -ceq 'Restart-Service') {
    $result = Restart-ExactService ([string]$in.params.Name)
} else {
    throw ('not an allowed repair step: {0}' -f $step)
}

if ($PSVersionTable.PSVersion.Major -lt 6) {
    # Windows PowerShell 5.1 would print arrays as {"value":[...],"Count":n} (see collect.ps1).
    Remove-TypeData -TypeName System.Array -ErrorAction SilentlyContinue
}
$json = ConvertTo-Json -InputObject $result -Depth 5 -Compress
$json = [regex]::Replace($json, '[^\x00-\x7F]', { param($m) '\u{0:x4}' -f [int][char]$m.Value })
[Console]::Out.WriteLine($json)
