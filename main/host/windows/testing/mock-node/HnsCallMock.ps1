# The HNS v1 call collect.ps1 and repair-step.ps1 make (vmcompute.dll HNSCall, as hns.psm1 does),
# for a mock node on Linux. Both scripts compile their P/Invoke type only when
# 'CniDoctor.Hns.NativeMethods' does not exist yet; this defines a type of that name and signature
# first (MockWindowsNode.psm1 loads it before any script runs). Its HNSCall answers the
# collection's reads from texts Install-MockWindowsNode stores, and, once
# Enable-MockHnsCallWrites is called, every call from the mock node's lists, changing them:
# GET /networks, /endpoints, /endpoints/<id>, /namespaces, POST /networks, DELETE /networks/<id>
# and /endpoints/<id>, with HNS's {Success, Output | Error, ErrorCode} envelope. Calls are
# recorded in ::Calls.
# Like the real export it returns an HRESULT: a path in ::Hresults fails with that code and leaves
# the response null, as a stopped HNS service or an unelevated caller does; a path in ::NoAnswer
# succeeds (0) with a null response.
if ($null -eq ('CniDoctor.Hns.NativeMethods' -as [type])) {
    Add-Type -TypeDefinition @'
namespace CniDoctor.Hns {
    public static class NativeMethods {
        public static System.Collections.Generic.List<string> Calls = new System.Collections.Generic.List<string>();
        // Writes (and reads while it is set): a PowerShell handler that changes the node.
        public static System.Func<string, string, string, string> Handler;
        // Reads for the collection, answered here without PowerShell: they come from the
        // collection's own runspaces, on other threads.
        public static System.Collections.Generic.Dictionary<string, string> Answers = new System.Collections.Generic.Dictionary<string, string>();
        public static System.Collections.Generic.Dictionary<string, int> Delays = new System.Collections.Generic.Dictionary<string, int>();
        public static System.Collections.Generic.Dictionary<string, int> Hresults = new System.Collections.Generic.Dictionary<string, int>();
        public static System.Collections.Generic.HashSet<string> NoAnswer = new System.Collections.Generic.HashSet<string>();
        public static bool Available = true;
        public static int HNSCall(string method, string path, string request, out string response) {
            lock (Calls) { Calls.Add(method + " " + path + (string.IsNullOrEmpty(request) ? "" : " " + request)); }
            response = null;
            if (!Available) throw new System.DllNotFoundException("Unable to load DLL 'vmcompute.dll' (mock node without HNSCall)");
            int delay;
            if (Delays.TryGetValue(path, out delay)) System.Threading.Thread.Sleep(delay);
            int hr;
            if (Hresults.TryGetValue(path, out hr)) return hr;
            if (NoAnswer.Contains(path)) return 0;
            if (Handler != null) { response = Handler(method, path, request); return 0; }
            string answer;
            if (method == "GET" && Answers.TryGetValue(path, out answer)) { response = answer; return 0; }
            response = "{\"Success\":false,\"Error\":\"mock HNS: no such call\",\"ErrorCode\":2147942487}";
            return 0;
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
    elseif ($Method -eq 'GET' -and $Path -match '^/endpoints/(.+)$') {
        # One endpoint by ID, as hcsshim's HNSEndpointRequest asks; HNS answers a missing one
        # with "Element not found." (ERROR_NOT_FOUND).
        $id = $Matches[1]
        $output = @($node.hns.endpoints | Where-Object { [string]$_.ID -ieq $id })[0]
        if ($null -eq $output) {
            return ConvertTo-Json -Compress -InputObject ([ordered]@{ Success = $false; Error = 'Element not found.'; ErrorCode = 2147943568 })
        }
    }
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

# Repair tests: HNS calls go through Get-MockHnsAnswer, which changes the mock node's lists.
function Enable-MockHnsCallWrites {
    [CniDoctor.Hns.NativeMethods]::Handler = [Func[string, string, string, string]] { param($m, $p, $r) Get-MockHnsAnswer $m $p $r }
}
