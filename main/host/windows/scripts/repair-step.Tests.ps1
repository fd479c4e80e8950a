# Pester tests of repair-step.ps1 in the real PowerShell 7, on a mocked node: HNS through a
# stand-in for vmcompute.dll's HNSCall (testing/mock-node/HnsCallMock.ps1) over the real samples'
# networks and endpoints, services through the mock service controller. Every branch of the
# allow-list, the exact-ID and protected-endpoint guards, refusals, the undo of New-HnsNetwork,
# and the injection corpus (fixtures/hostile/powershell-injection.json). Run by pester.test.ts.

BeforeAll {
    $script:Root = (Resolve-Path (Join-Path $PSScriptRoot '../../../..')).Path
    $script:Step = Join-Path $PSScriptRoot 'repair-step.ps1'
    $script:Samples = Join-Path $Root 'fixtures/windows/samples'
    Import-Module (Join-Path $PSScriptRoot '../testing/mock-node/MockWindowsNode.psm1') -Force
    . (Join-Path $PSScriptRoot '../testing/mock-node/NodeScript.ps1')

    function Get-SampleHns([string]$File) { return ([IO.File]::ReadAllText((Join-Path $Samples $File)) | ConvertFrom-Json).hns }
    # Sample 04: containerd's nat network and Calico's; sample 15: remote endpoints; sample 11: a
    # local endpoint created but never attached. Plus a host endpoint (*_ep) and a source VIP.
    $script:Networks = @((Get-SampleHns '04-get-hnsnetwork-containerd-nat-calico-node.json').networks)
    $script:Local = @((Get-SampleHns '11-get-hnsendpoint-nat-created-not-attached.json').endpoints)[0]
    $script:Remote = @(@((Get-SampleHns '15-get-hnsendpoint-remote-l2bridge-acs-engine.json').endpoints) | Where-Object { $_.IsRemoteEndpoint -eq $true })[0]
    $script:HostEp = [pscustomobject]@{ ID = '0B9E8A86-1C47-4C1B-9E3C-6F3B7B3C9A01'; Name = 'Calico_ep'; IsRemoteEndpoint = $false }
    $script:SourceVip = [pscustomobject]@{ ID = '5C6E1C51-3C34-4A63-8D5D-2D4F3C3B2A10'; Name = 'sourceVip'; IsRemoteEndpoint = $false }

    function Install-Node([hashtable]$Over = @{}) {
        $spec = [ordered]@{
            hnsModules = @()
            hns        = [ordered]@{ networks = $Networks; endpoints = @($Local, $Remote, $HostEp, $SourceVip); namespaces = @(); policyLists = @() }
            services   = @(
                [ordered]@{ Name = 'antrea-agent'; State = 'Stopped' }
                [ordered]@{ Name = 'ovs-vswitchd'; State = 'Running' }
                [ordered]@{ Name = 'kube-proxy'; State = 'Running' }
            )
        }
        foreach ($k in $Over.Keys) { $spec[$k] = $Over[$k] }
        $path = Join-Path $TestDrive 'spec.json'
        [IO.File]::WriteAllText($path, (ConvertTo-Json -InputObject $spec -Depth 30 -Compress))
        Install-MockWindowsNode -SpecPath $path
        Enable-MockHnsCallWrites
        [CniDoctor.Hns.NativeMethods]::Calls.Clear()
    }
    function Invoke-Step([string]$Cmdlet, $Params) {
        return Invoke-NodeScript -Path $Step -Payload ([ordered]@{ cmdlet = $Cmdlet; params = $Params })
    }
    function Get-Calls { return @([CniDoctor.Hns.NativeMethods]::Calls) }
    function Get-Writes { return @(Get-Calls | Where-Object { $_ -notmatch '^GET ' }) }
    function Get-NodeHns { return [AppDomain]::CurrentDomain.GetData('cni-doctor.mock-node').hns }
}

AfterAll { Uninstall-MockWindowsNode }

Describe 'repair-step.ps1: New-HnsNetwork and its undo' {
    BeforeEach { Install-Node }
    It 'creates exactly one NAT network with the given subnet and gateway, and says which' {
        $r = Invoke-Step 'New-HnsNetwork' @{ Type = 'NAT'; Name = 'nat2'; AddressPrefix = '172.30.0.0/20'; Gateway = '172.30.0.1' }
        $r.Thrown | Should -BeNullOrEmpty
        $r.Json.step | Should -Be 'New-HnsNetwork'
        $r.Json.name | Should -Be 'nat2'
        $r.Json.id | Should -Match '^[0-9A-F-]{36}$'
        $writes = @(Get-Writes)
        $writes.Count | Should -Be 1
        $writes[0] | Should -Be 'POST /networks {"Type":"NAT","Name":"nat2","Subnets":[{"AddressPrefix":"172.30.0.0/20","GatewayAddress":"172.30.0.1"}]}'
        @((Get-NodeHns).networks | Where-Object ID -EQ $r.Json.id).Count | Should -Be 1
    }
    It 'refuses a name that already exists (case-insensitive); nothing is created' {
        $existing = [string]$Networks[0].Name
        $r = Invoke-Step 'New-HnsNetwork' @{ Type = 'NAT'; Name = $existing.ToUpperInvariant(); AddressPrefix = '172.30.0.0/20' }
        $r.Thrown | Should -Match 'already exists \(.+\); nothing was created'
        Get-Writes | Should -BeNullOrEmpty
    }
    It 'refuses other network types, bad prefixes and gateways, a gateway without a prefix' {
        (Invoke-Step 'New-HnsNetwork' @{ Type = 'Transparent'; Name = 'x' }).Thrown | Should -Match 'only NAT'
        (Invoke-Step 'New-HnsNetwork' @{ Type = 'NAT'; Name = 'x'; AddressPrefix = '172.30.0.0/33' }).Thrown | Should -Match 'not an IPv4 address prefix'
        (Invoke-Step 'New-HnsNetwork' @{ Type = 'NAT'; Name = 'x'; AddressPrefix = '10.0.0.0/8'; Gateway = '10.0.0.256' }).Thrown | Should -Match 'not an IPv4 gateway'
        (Invoke-Step 'New-HnsNetwork' @{ Type = 'NAT'; Name = 'x'; Gateway = '10.0.0.1' }).Thrown | Should -Match 'gateway was given without'
        (Invoke-Step 'New-HnsNetwork' @{ Type = 'NAT'; Name = '' }).Thrown | Should -Match 'empty, too long'
        Get-Writes | Should -BeNullOrEmpty
    }
    It 'undo removes exactly the network it created, by ID' {
        $created = (Invoke-Step 'New-HnsNetwork' @{ Type = 'NAT'; Name = 'nat2'; AddressPrefix = '172.30.0.0/20' }).Json
        $count = @((Get-NodeHns).networks).Count
        [CniDoctor.Hns.NativeMethods]::Calls.Clear()
        $r = Invoke-Step 'Remove-HnsNetwork' @{ Id = $created.id; Name = 'nat2' }
        $r.Thrown | Should -BeNullOrEmpty
        $r.Json.removed | Should -BeTrue
        Get-Writes | Should -Be @("DELETE /networks/$($created.id)")
        @((Get-NodeHns).networks).Count | Should -Be ($count - 1)
        @((Get-NodeHns).networks).ID | Should -Be @($Networks.ID)
    }
    It 'undo of a network already gone changes nothing and says removed=false' {
        $r = Invoke-Step 'Remove-HnsNetwork' @{ Id = '11111111-2222-3333-4444-555555555555'; Name = 'nat2' }
        $r.Json.removed | Should -BeFalse
        Get-Writes | Should -BeNullOrEmpty
    }
    It 'undo refuses a network that was renamed since, and a non-GUID ID' {
        $id = [string]$Networks[0].ID
        (Invoke-Step 'Remove-HnsNetwork' @{ Id = $id; Name = 'not-its-name' }).Thrown | Should -Match 'it was not removed'
        (Invoke-Step 'Remove-HnsNetwork' @{ Id = 'nat*'; Name = 'nat' }).Thrown | Should -Match 'not a network ID'
        Get-Writes | Should -BeNullOrEmpty
    }
    It 'an HNS failure is thrown with HNS''s own error and code' {
        Install-Node @{ fail = @{ 'POST /networks' = 'The parameter is incorrect.' } }
        (Invoke-Step 'New-HnsNetwork' @{ Type = 'NAT'; Name = 'nat2' }).Thrown | Should -Match 'failed: The parameter is incorrect. \(error code 2147942405\)'
    }
    It 'HNSCall''s own HRESULT is thrown with its code when HNS is not reached; a null answer says so (review L1)' {
        Install-Node @{ hnsCallHresult = @{ '/networks' = -2147023838 } }
        (Invoke-Step 'New-HnsNetwork' @{ Type = 'NAT'; Name = 'nat2' }).Thrown | Should -Be 'HNS GET /networks failed: HRESULT 0x80070422'
        Install-Node @{ hnsCallNoAnswer = @('/networks') }
        (Invoke-Step 'New-HnsNetwork' @{ Type = 'NAT'; Name = 'nat2' }).Thrown | Should -Be 'HNS GET /networks: no answer'
        Get-Writes | Should -BeNullOrEmpty
    }
}

Describe 'repair-step.ps1: Remove-HnsEndpoint guards' {
    BeforeEach { Install-Node }
    It 'removes the listed endpoint by exact ID and reports IDs that were already gone' {
        $gone = 'AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE'
        $r = Invoke-Step 'Remove-HnsEndpoint' @{ Id = @([string]$Local.ID, $gone) }
        $r.Thrown | Should -BeNullOrEmpty
        @($r.Json.removed) | Should -Be @([string]$Local.ID)
        @($r.Json.absent) | Should -Be @($gone)
        Get-Writes | Should -Be @("DELETE /endpoints/$($Local.ID)")
    }
    It 'asks HNS for each endpoint by its ID, never for the whole list (review L2)' {
        $gone = 'AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE'
        $r = Invoke-Step 'Remove-HnsEndpoint' @{ Id = @([string]$Local.ID, $gone) }
        $r.Thrown | Should -BeNullOrEmpty
        @(Get-Calls | Where-Object { $_ -match '^GET ' }) | Should -Be @("GET /endpoints/$($Local.ID)", "GET /endpoints/$gone")
    }
    It 'a lookup HNS refuses (not "not found") stops the step before anything is removed' {
        Install-Node @{ fail = @{ ('GET /endpoints/' + $Local.ID) = 'Access is denied.' } }
        $r = Invoke-Step 'Remove-HnsEndpoint' @{ Id = @([string]$Local.ID) }
        $r.Thrown | Should -Match 'Access is denied.*nothing was removed'
        Get-Writes | Should -BeNullOrEmpty
    }
    It 'refuses remote, host (*_ep) and source-VIP endpoints before removing anything' {
        foreach ($protected in $Remote, $HostEp, $SourceVip) {
            $r = Invoke-Step 'Remove-HnsEndpoint' @{ Id = @([string]$Local.ID, [string]$protected.ID) }
            $r.Thrown | Should -Match 'nothing was removed'
        }
        Get-Writes | Should -BeNullOrEmpty
        @((Get-NodeHns).endpoints).Count | Should -Be 4
    }
    It 'refuses names, patterns and an empty list: IDs only' {
        (Invoke-Step 'Remove-HnsEndpoint' @{ Id = @('*') }).Thrown | Should -Match 'not an endpoint ID'
        (Invoke-Step 'Remove-HnsEndpoint' @{ Id = @([string]$Local.Name) }).Thrown | Should -Match 'not an endpoint ID'
        (Invoke-Step 'Remove-HnsEndpoint' @{ Id = @() }).Thrown | Should -Match 'no endpoint IDs'
        Get-Writes | Should -BeNullOrEmpty
    }
    It 'a removal failing midway says how many were removed and which one failed' {
        $second = [pscustomobject]@{ ID = '9F4C6C4E-0D1A-4E43-9B59-1C2D3E4F5A6B'; Name = 'ep2'; IsRemoteEndpoint = $false }
        Install-Node @{ hns = [ordered]@{ networks = $Networks; endpoints = @($Local, $second); namespaces = @(); policyLists = @() }; fail = @{ ('DELETE /endpoints/' + $second.ID) = 'Access is denied.' } }
        $r = Invoke-Step 'Remove-HnsEndpoint' @{ Id = @([string]$Local.ID, [string]$second.ID) }
        $r.Thrown | Should -Match ('^removed 1 of 2 endpoint\(s\) \[{0}\]; removing {1} failed' -f $Local.ID, $second.ID)
    }
}

Describe 'repair-step.ps1: services and the allow-list' {
    BeforeEach { Install-Node }
    It 'Start-Service starts exactly the named service; Restart-Service restarts it' {
        $r = Invoke-Step 'Start-Service' @{ Name = 'ANTREA-AGENT' }
        $r.Json.name | Should -Be 'antrea-agent'
        $r.Json.was | Should -Be 'Stopped'
        $r = Invoke-Step 'Restart-Service' @{ Name = 'ovs-vswitchd'; Force = $true }
        $r.Json.was | Should -Be 'Running'
        Get-MockServiceLog | Should -Be @('Start-Service antrea-agent', 'Restart-Service ovs-vswitchd')
    }
    It 'Start-Service of a running service does nothing' {
        (Invoke-Step 'Start-Service' @{ Name = 'kube-proxy' }).Json.was | Should -Be 'Running'
        Get-MockServiceLog | Should -Not -Contain 'Start-Service kube-proxy'
    }
    It 'looks the service up by its exact name, so PowerShell 7''s errors for other services cannot fail the step (review B4)' {
        $services = @(
            [ordered]@{ Name = 'WaaSMedicSvc'; State = 'Stopped'; queryDenied = $true }
            [ordered]@{ Name = 'antrea-agent'; State = 'Stopped' }
        )
        Install-Node @{ services = $services }
        # The mock writes PowerShell 7's error for a listing of all services (not a vacuous pass).
        $err = $null
        $null = Get-Service -ErrorVariable err -ErrorAction SilentlyContinue
        [string]@($err)[0] | Should -Be "Service 'WaaSMedicSvc (WaaSMedicSvc)' cannot be queried due to the following error: PermissionDenied"
        $r = Invoke-Step 'Start-Service' @{ Name = 'antrea-agent' }
        $r.Thrown | Should -BeNullOrEmpty
        $r.Json.was | Should -Be 'Stopped'
        @(Get-MockServiceLog)[-1] | Should -Be 'Start-Service antrea-agent'
    }
    It 'a service that does not exist says so with Get-Service''s own reason' {
        (Invoke-Step 'Start-Service' @{ Name = 'flanneld' }).Thrown | Should -Match "does not exist: Cannot find any service with service name 'flanneld'"
    }
    It 'refuses wildcards and services that do not exist' {
        (Invoke-Step 'Restart-Service' @{ Name = 'kube*' }).Thrown | Should -Match 'not a service name'
        (Invoke-Step 'Start-Service' @{ Name = 'flanneld' }).Thrown | Should -Match 'does not exist'
    }
    It 'refuses anything off the list, and the right names in the wrong case' {
        foreach ($c in 'Remove-Item', 'Stop-Service', 'Invoke-Expression', 'new-hnsnetwork', 'Remove-HnsNetwork ', '') {
            $r = Invoke-Step $c @{ Name = 'x' }
            $r.Thrown | Should -Match 'not an allowed repair step' -Because "cmdlet '$c'"
        }
        (Invoke-NodeScript -Path $Step -Payload ([ordered]@{ cmdlet = 'Start-Service' })).Thrown | Should -Be 'no repair step was given'
        Get-Calls | Should -BeNullOrEmpty
    }
}

Describe 'the injection corpus through the real shell' {
    BeforeAll {
        $script:CanaryDir = Join-Path $TestDrive 'canary'
        [void](New-Item -ItemType Directory -Force -Path $CanaryDir)
        $script:Canary = Join-Path $CanaryDir 'ran'
        $corpus = [IO.File]::ReadAllText((Join-Path $Root 'fixtures/hostile/powershell-injection.json')) | ConvertFrom-Json
        $script:Values = @($corpus.values | ForEach-Object { $_.Replace('CANARY', "New-Item -ItemType File -Force -Path $Canary") })
    }
    It 'holds at least 40 values, and the canary command does run when it is code (not a vacuous pass)' {
        $Values.Count | Should -BeGreaterOrEqual 40
        & ([ScriptBlock]::Create("New-Item -ItemType File -Force -Path $Canary")) | Out-Null
        Test-Path -LiteralPath $Canary | Should -BeTrue
        Remove-Item -LiteralPath $Canary
        Invoke-Expression ('"$(' + "New-Item -ItemType File -Force -Path $Canary" + ')"') | Out-Null
        Test-Path -LiteralPath $Canary | Should -BeTrue
        Remove-Item -LiteralPath $Canary
    }
    It 'repair-step.ps1: every value as a network name, network ID, endpoint ID, service name and step name is data' {
        Install-Node
        foreach ($v in $Values) {
            $r = Invoke-Step 'New-HnsNetwork' @{ Type = 'NAT'; Name = $v }
            if ($v.IndexOf([char]0) -lt 0) { $r.Json.name | Should -BeExactly $v }
            [void](Invoke-Step 'Remove-HnsNetwork' @{ Id = $v; Name = $v })
            [void](Invoke-Step 'Remove-HnsEndpoint' @{ Id = @($v) })
            [void](Invoke-Step 'Start-Service' @{ Name = $v })
            [void](Invoke-Step 'Restart-Service' @{ Name = $v })
            [void](Invoke-Step $v @{ Name = $v })
        }
        Test-Path -LiteralPath $Canary | Should -BeFalse
        # Each name arrived at HNS exactly as given (the POST bodies, parsed back).
        $posted = @(Get-Calls | Where-Object { $_ -like 'POST /networks *' } | ForEach-Object { ($_.Substring('POST /networks '.Length) | ConvertFrom-Json).Name })
        $posted | Should -Be @($Values | Where-Object { $_.IndexOf([char]0) -lt 0 })
    }
    It 'collect.ps1: every value as a path, service, process name, HNS source and version probe is data' {
        Install-Node @{ hnsModules = @('builtin') }
        $node = Join-Path $TestDrive 'inj-C'
        [void](New-Item -ItemType Directory -Force -Path $node)
        $payload = [ordered]@{
            paths           = @($Values | ForEach-Object { 'C:\k\' + $_ })
            dirs            = @($Values | ForEach-Object { 'C:\' + $_ })
            readDirs        = @('C:\')
            readDirSuffixes = @($Values)
            tails           = @($Values | ForEach-Object { 'C:\var\log\' + $_ })
            services        = @($Values)
            processNames    = @($Values)
            versionProbes   = @($Values | ForEach-Object { [ordered]@{ component = $_; exe = $_; args = @($_); candidates = @('C:\' + $_) } })
            runVersionCommands = $true
            hnsSource       = 'auto'
            hnsTimeoutMs    = 30000
            nodeRoot        = [ordered]@{ drives = @{ C = $node } }
        }
        $r = Invoke-NodeScript -Path (Join-Path $PSScriptRoot 'collect.ps1') -Payload $payload
        $r.Thrown | Should -BeNullOrEmpty
        Test-Path -LiteralPath $Canary | Should -BeFalse
        # The names came back as the same text (data in, data out).
        $missing = @($r.Json.services.items | Where-Object { -not $_.present }).name
        foreach ($v in $Values) { $missing | Should -Contain $v -Because 'every service name comes back verbatim, reported missing' }
        @($r.Json.files.items).Count | Should -BeGreaterThan (3 * $Values.Count)
        foreach ($hs in 'a', "'; New-Item -ItemType File -Force -Path $Canary; '") {
            $d = Invoke-NodeScript -Path (Join-Path $PSScriptRoot 'collect.ps1') -Payload ([ordered]@{ sections = @('hns'); hnsSource = $hs })
            @($d.Json.hns.attempts)[0].result | Should -Be 'unknown source'
        }
        Test-Path -LiteralPath $Canary | Should -BeFalse
    }
}
