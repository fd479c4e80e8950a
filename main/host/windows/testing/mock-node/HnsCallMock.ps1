# The HNS v1 call repair-step.ps1 makes (vmcompute.dll HNSCall, as hns.psm1 does), for a mock node
# on Linux. repair-step.ps1 compiles its P/Invoke type only when 'CniDoctor.Hns.NativeMethods' does
# not exist yet; this defines a type of that name and signature first, whose HNSCall answers from
# the mock node's lists (MockWindowsNode.psm1) and changes them: GET /networks and /endpoints,
# POST /networks, DELETE /networks/<id> and /endpoints/<id>, with HNS's {Success, Output | Error,
# ErrorCode} envelope. Every call is recorded in [CniDoctor.Hns.NativeMethods]::Calls.
if ($null -eq ('CniDoctor.Hns.NativeMethods' -as [type])) {
    Add-Type -TypeDefinition @'
namespace CniDoctor.Hns {
    public static class NativeMethods {
        public static System.Collections.Generic.List<string> Calls = new System.Collections.Generic.List<string>();
        public static System.Func<string, string, string, string> Handler;
        public static void HNSCall(string method, string path, string request, out string response) {
            Calls.Add(method + " " + path + (string.IsNullOrEmpty(request) ? "" : " " + request));
            response = Handler(method, path, request);
        }
    }
}
'@
}

function Get-MockHnsAnswer([string]$Method, [string]$Path, [string]$Request) {
    $node = [AppDomain]::CurrentDomain.GetData('cni-doctor.mock-node')
    $fail = $null
    if ($null -ne $node.fail) { $fail = $node.fail.PSObject.Properties[($Method + ' ' + $Path)] }
    if ($null -ne $fail) {
        return ConvertTo-Json -Compress -InputObject ([ordered]@{ Success = $false; Error = [string]$fail.Value; ErrorCode = 2147942405 })
    }
    $output = $null
    if ($Method -eq 'GET' -and $Path -eq '/networks') { $output = @($node.hns.networks) }
    elseif ($Method -eq 'GET' -and $Path -eq '/endpoints') { $output = @($node.hns.endpoints) }
    elseif ($Method -eq 'POST' -and $Path -eq '/networks') {
        $body = $Request | ConvertFrom-Json
        $created = [pscustomobject]@{ ID = [guid]::NewGuid().ToString().ToUpperInvariant(); Name = $body.Name; Type = $body.Type; Subnets = $body.Subnets }
        $node.hns.networks = @($node.hns.networks) + $created
        $output = $created
    } elseif ($Method -eq 'DELETE' -and $Path -match '^/(networks|endpoints)/(.+)$') {
        $kind = $Matches[1]
        $id = $Matches[2]
        $before = @($node.hns.$kind)
        $after = @($before | Where-Object { [string]$_.ID -ine $id })
        if ($after.Count -eq $before.Count) {
            return ConvertTo-Json -Compress -InputObject ([ordered]@{ Success = $false; Error = 'Element not found.'; ErrorCode = 2147943568 })
        }
        $node.hns.$kind = $after
    } else {
        return ConvertTo-Json -Compress -InputObject ([ordered]@{ Success = $false; Error = 'mock HNS: no such call'; ErrorCode = 2147942487 })
    }
    return ConvertTo-Json -Compress -Depth 20 -InputObject ([ordered]@{ Success = $true; Output = $output })
}

[CniDoctor.Hns.NativeMethods]::Handler = [Func[string, string, string, string]] { param($m, $p, $r) Get-MockHnsAnswer $m $p $r }
