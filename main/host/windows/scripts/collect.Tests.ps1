# Pester tests of collect.ps1 in the real PowerShell 7, on a mocked Windows node
# (testing/mock-node: HNS modules returning the real samples from fixtures/windows/samples, WMI,
# service controller and registry as functions; files and pipes are real folders under $TestDrive
# mapped as the node's C: drive and pipe listing). Run by pester.test.ts (npm test).

BeforeAll {
    $script:Root = (Resolve-Path (Join-Path $PSScriptRoot '../../../..')).Path
    $script:Collect = Join-Path $PSScriptRoot 'collect.ps1'
    $script:Samples = Join-Path $Root 'fixtures/windows/samples'
    Import-Module (Join-Path $PSScriptRoot '../testing/mock-node/MockWindowsNode.psm1') -Force
    . (Join-Path $PSScriptRoot '../testing/mock-node/NodeScript.ps1')

    function Get-SampleHns([string]$File) {
        return ([IO.File]::ReadAllText((Join-Path $Samples $File)) | ConvertFrom-Json).hns
    }

    # The node: C: and the pipes are folders; everything else is the spec.
    $script:C = Join-Path $TestDrive 'C'
    $script:Pipes = Join-Path $TestDrive 'pipes'
    function New-NodeFile([string]$NodePath, [string]$Text) {
        $io = Join-Path $C ($NodePath.Substring(3).Replace('\', '/'))
        [void](New-Item -ItemType Directory -Force -Path (Split-Path $io))
        [IO.File]::WriteAllText($io, $Text)
        return $io
    }
    New-NodeFile 'C:\etc\cni\net.d\0-containerd-nat.json' '{"cniVersion":"0.2.0","name":"nat","type":"nat"}' | Out-Null
    New-NodeFile 'C:\etc\cni\net.d\10-antrea.conflist' '{"name":"antrea","plugins":[{"type":"antrea"}]}' | Out-Null
    New-NodeFile 'C:\etc\cni\net.d\README.txt' 'not a config' | Out-Null
    New-NodeFile 'C:\opt\cni\bin\nat.exe' '' | Out-Null
    $log = (1..2000 | ForEach-Object { 'I1208 10:12:{0:d2} line {1}' -f ($_ % 60), $_ }) -join "`n"
    New-NodeFile 'C:\var\log\kubelet\kubelet.log' $log | Out-Null
    New-NodeFile 'C:\k\names\ünïcødé ☃.conf' 'x' | Out-Null
    $kubelet = New-NodeFile 'C:\k\kubelet.exe' "#!/bin/sh`necho `"Kubernetes v1.29.1`"`n"
    chmod 755 $kubelet
    $script:Denied = New-NodeFile 'C:\k\secret.conf' 'top secret'
    chmod 000 $Denied
    [void](New-Item -ItemType Directory -Force -Path $Pipes)
    foreach ($p in 'containerd-containerd', 'lsass', 'openvswitch-ovsdb') { [IO.File]::WriteAllText((Join-Path $Pipes $p), '') }

    $script:Network = Get-SampleHns '03-get-hnsnetwork-flannel-vxlan0-list.json'
    $script:Endpoints = Get-SampleHns '11-get-hnsendpoint-nat-created-not-attached.json'
    $script:PolicyLists = Get-SampleHns '08-get-hnspolicylist-kubeproxy-elb-calico.json'
    $script:Namespaces = Get-SampleHns '09-get-hnsnamespace-calico-node.json'

    function Install-Node([hashtable]$Over = @{}) {
        $spec = [ordered]@{
            hnsModules = @('builtin')
            hns        = [ordered]@{
                networks    = @($Network.networks)
                endpoints   = @($Endpoints.endpoints)
                namespaces  = @($Namespaces.namespaces)
                policyLists = @($PolicyLists.policyLists)
            }
            services   = @(
                [ordered]@{ Name = 'containerd'; State = 'Running'; StartMode = 'Auto'; PathName = '"C:\Program Files\containerd\containerd.exe" --run-service'; ProcessId = 2212; ExitCode = 0 }
                [ordered]@{ Name = 'kubelet'; State = 'Running'; StartMode = 'Auto'; PathName = 'C:\k\nssm.exe'; ProcessId = 3188; ExitCode = 0 }
                [ordered]@{ Name = 'antrea-agent'; State = 'Stopped'; StartMode = 'Manual'; PathName = 'C:\k\nssm.exe'; ProcessId = 0; ExitCode = 1077 }
            )
            processes  = @(
                [ordered]@{ Name = 'kubelet.exe'; ProcessId = 3188; ParentProcessId = 600; CommandLine = 'C:\k\kubelet.exe --config=C:\var\lib\kubelet\config.yaml'; ExecutablePath = 'C:\k\kubelet.exe' }
                [ordered]@{ Name = 'svchost.exe'; ProcessId = 4; ParentProcessId = 0; CommandLine = 'svchost'; ExecutablePath = 'C:\Windows\System32\svchost.exe' }
            )
            registry   = [ordered]@{
                'HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion'            = [ordered]@{ CurrentMajorVersionNumber = 10; CurrentMinorVersionNumber = 0; CurrentBuildNumber = '20348'; UBR = 2113; ProductName = 'Windows Server 2022 Datacenter'; InstallationType = 'Server Core' }
                'HKLM:\SYSTEM\CurrentControlSet\Services\kubelet\Parameters' = [ordered]@{ Application = 'C:\k\kubelet.exe'; AppParameters = '--config=C:\var\lib\kubelet\config.yaml'; AppDirectory = 'C:\k' }
            }
        }
        foreach ($k in $Over.Keys) { $spec[$k] = $Over[$k] }
        $path = Join-Path $TestDrive 'spec.json'
        [IO.File]::WriteAllText($path, (ConvertTo-Json -InputObject $spec -Depth 30 -Compress))
        Install-MockWindowsNode -SpecPath $path
    }

    function Invoke-Collect([hashtable]$Over = @{}) {
        $payload = [ordered]@{
            paths              = @()
            dirs               = @()
            readDirs           = @()
            readDirSuffixes    = @('.conf', '.conflist', '.json')
            tails              = @()
            maxTailBytes       = 4096
            maxFileBytes       = 1048576
            maxDirEntries      = 5000
            services           = @('containerd', 'kubelet', 'antrea-agent', 'flanneld')
            processNames       = @('kubelet.exe', 'containerd.exe')
            versionProbes      = @([ordered]@{ component = 'kubelet'; exe = 'kubelet.exe'; args = @('--version'); candidates = @('C:\k\kubelet.exe') })
            runVersionCommands = $true
            execTimeoutMs      = 10000
            hnsSource          = 'auto'
            hnsTimeoutMs       = 30000
            maxHnsRawChars     = 67108864
            nodeRoot           = [ordered]@{ drives = @{ C = $C }; pipes = $Pipes }
        }
        foreach ($k in $Over.Keys) { $payload[$k] = $Over[$k] }
        $r = Invoke-NodeScript -Path $Collect -Payload $payload
        $r.Thrown | Should -BeNullOrEmpty
        return $r
    }
    function Get-FileItem($Doc, [string]$Path) {
        return @($Doc.files.items | Where-Object { $_.path -eq $Path })[0]
    }
    function ConvertFrom-B64([string]$B64) { return [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($B64)) }

    Install-Node
}

AfterAll {
    Uninstall-MockWindowsNode
}

Describe 'collect.ps1: the document' {
    It 'prints one line of ASCII JSON with every section, nothing thrown' {
        $r = Invoke-Collect @{ paths = @('C:\k\names\ünïcødé ☃.conf') }
        $lines = @($r.Stdout.TrimEnd("`r", "`n") -split "`n")
        $lines.Count | Should -Be 1
        $r.Stdout | Should -Not -Match '[^\x00-\x7F]'
        $r.Json.format | Should -Be 'cni-doctor.windows-collect/v1'
        foreach ($s in 'host', 'pipes', 'services', 'processes', 'hns', 'versions', 'files') { $r.Json.$s | Should -Not -BeNullOrEmpty -Because $s }
        # Non-ASCII survives as \u escapes.
        (Get-FileItem $r.Json 'C:\k\names\ünïcødé ☃.conf').type | Should -Be 'file'
    }
    It 'reads the OS version from the registry even where the elevation check cannot run' {
        $h = (Invoke-Collect @{ sections = @('host') }).Json.host
        $h.osVersion | Should -Be '10.0.20348'
        $h.installationType | Should -Be 'Server Core'
        $h.error | Should -BeNullOrEmpty
    }
    It 'runs only the sections asked for (a follow-up reads files only)' {
        $d = (Invoke-Collect @{ sections = @('files'); paths = @('C:\etc\cni\net.d\10-antrea.conflist') }).Json
        $d.hns | Should -BeNullOrEmpty
        $d.services | Should -BeNullOrEmpty
        (Get-FileItem $d 'C:\etc\cni\net.d\10-antrea.conflist').type | Should -Be 'file'
    }
}

Describe 'collect.ps1: HNS' {
    AfterEach { Install-Node }
    It 'HNSCall first: HNS''s own JSON text for all four lists (namespaces on HNS v1''s /namespaces), passed through unparsed' {
        $h = (Invoke-Collect @{ sections = @('hns') }).Json.hns
        $h.source | Should -Be 'HNSCall'
        $h.schema | Should -Be 'v1'
        $calls = @([CniDoctor.Hns.NativeMethods]::Calls | Select-Object -Last 4)
        $calls | Should -Be @('GET /networks', 'GET /endpoints', 'GET /namespaces', 'GET /policylists')
        $h.raw.endpoints | Should -BeExactly ([CniDoctor.Hns.NativeMethods]::Answers['/endpoints'])
        (ConvertTo-Json -InputObject @(($h.raw.networks | ConvertFrom-Json).Output) -Depth 20 -Compress) | Should -Be (ConvertTo-Json -InputObject @($Network.networks) -Depth 20 -Compress)
        @(($h.raw.policyLists | ConvertFrom-Json).Output).Count | Should -Be @($PolicyLists.policyLists).Count
        @(($h.raw.namespaces | ConvertFrom-Json).Output).Count | Should -Be @($Namespaces.namespaces).Count
        @($h.endpoints).Count | Should -Be 0 -Because 'HNSCall lists travel as raw text only'
        @($h.attempts)[-1].result | Should -Be '4 of 4 lists read'
    }
    It 'HNSCall without the module (Server 2016): all four lists, namespaces too (review L7)' {
        Install-Node @{ hnsModules = @() }
        $h = (Invoke-Collect @{ sections = @('hns') }).Json.hns
        $h.source | Should -Be 'HNSCall'
        $h.errors.PSObject.Properties.Name | Should -BeNullOrEmpty
        @(($h.raw.namespaces | ConvertFrom-Json).Output).Count | Should -Be @($Namespaces.namespaces).Count
    }
    It 'HNSCall: a failed call is reported with its HRESULT, a null answer as no answer (review L1)' {
        Install-Node @{ hnsCallHresult = @{ '/endpoints' = -2147024891 }; hnsCallNoAnswer = @('/policylists') }
        $h = (Invoke-Collect @{ sections = @('hns') }).Json.hns
        $h.source | Should -Be 'HNSCall'
        $h.errors.endpoints | Should -Match 'HNSCall GET /endpoints failed: HRESULT 0x80070005'
        $h.errors.policyLists | Should -Be 'HNS gave no answer'
        ($h.raw.networks | ConvertFrom-Json).Success | Should -BeTrue
    }
    It 'HNSCall failing everywhere (HNS stopped): the code is kept in the attempts'' errors and the next surface answers' {
        Install-Node @{ hnsCallHresult = @{ '/networks' = -2147023838; '/endpoints' = -2147023838; '/namespaces' = -2147023838; '/policylists' = -2147023838 } }
        $h = (Invoke-Collect @{ sections = @('hns') }).Json.hns
        $h.source | Should -Be 'HostNetworkingService'
        @($h.attempts)[0].result | Should -Be '0 of 4 lists read'
    }
    It 'hnsdiag: no schema label on the section, the normaliser tells each object by its fields (review L8)' {
        Install-Node @{ hnsCall = $false; hnsModules = @() }
        # A stand-in hnsdiag.exe under a SystemRoot of its own (Join-Path turns the script's
        # 'System32\hnsdiag.exe' into System32/hnsdiag.exe on Linux).
        $root = Join-Path $TestDrive 'hnsdiag-root'
        [void](New-Item -ItemType Directory -Force -Path (Join-Path $root 'System32'))
        $exe = Join-Path $root 'System32/hnsdiag.exe'
        [IO.File]::WriteAllText($exe, "#!/bin/sh`necho '{""ID"":""6C1E9F0A-0000-4000-8000-000000000001"",""FrontendVIPs"":[""10.96.0.10""],""HostComputeEndpoints"":[]}'`n")
        chmod 755 $exe
        $saved = $env:SystemRoot
        $env:SystemRoot = $root
        try {
            $h = (Invoke-Collect @{ sections = @('hns') }).Json.hns
        } finally {
            $env:SystemRoot = $saved
        }
        $h.source | Should -Be 'hnsdiag'
        $h.raw.policyLists | Should -Match 'FrontendVIPs'
        $h.schema | Should -BeNullOrEmpty
    }
    It 'hnsdiag: its output is read in the OEM code page it writes, not as UTF-8 (review C2)' {
        Install-Node @{ hnsCall = $false; hnsModules = @() }
        $root = Join-Path $TestDrive 'hnsdiag-oem'
        [void](New-Item -ItemType Directory -Force -Path (Join-Path $root 'System32'))
        $exe = Join-Path $root 'System32/hnsdiag.exe'
        # "Réseau" with the é as code page 437 writes it (0x82; the OEM code page here, where no
        # registry says otherwise): UTF-8 decoding turned it into U+FFFD.
        [IO.File]::WriteAllText($exe, "#!/bin/sh`nprintf '{""ID"":""6C1E9F0A-0000-4000-8000-000000000002"",""Name"":""R\202seau""}\n'`n")
        chmod 755 $exe
        $saved = $env:SystemRoot
        $env:SystemRoot = $root
        try {
            $h = (Invoke-Collect @{ sections = @('hns') }).Json.hns
        } finally {
            $env:SystemRoot = $saved
        }
        $h.source | Should -Be 'hnsdiag'
        $h.raw.networks | Should -Match 'R\u00e9seau'
    }
    It 'v1: the built-in HostNetworkingService module where HNSCall is not there, lists as the real samples hold them' {
        Install-Node @{ hnsCall = $false }
        $h = (Invoke-Collect @{ sections = @('hns') }).Json.hns
        $h.source | Should -Be 'HostNetworkingService'
        $h.schema | Should -Be 'v1'
        @($h.networks).Count | Should -Be @($Network.networks).Count
        @($h.endpoints).ID | Should -Be @($Endpoints.endpoints).ID
        @($h.policyLists).Count | Should -Be @($PolicyLists.policyLists).Count
        @($h.namespaces).Count | Should -Be @($Namespaces.namespaces).Count
        # v1 field names pass through untouched.
        (ConvertTo-Json -InputObject @($h.networks) -Depth 20 -Compress) | Should -Be (ConvertTo-Json -InputObject @($Network.networks) -Depth 20 -Compress)
        $h.errors.PSObject.Properties.Name | Should -BeNullOrEmpty
    }
    It 'v2: the HNS module when the built-in one is missing, v2 field names kept' {
        $v2 = Get-SampleHns '05-hns-network-raw-json-external-overlay-rke2.json'
        Install-Node @{ hnsCall = $false; hnsModules = @('v2'); hns = [ordered]@{ networks = @($v2.networks); endpoints = @(); namespaces = @(); policyLists = @() } }
        $h = (Invoke-Collect @{ sections = @('hns') }).Json.hns
        $h.source | Should -Be 'HNS'
        $h.schema | Should -Be 'v2'
        @($h.attempts).source | Should -Contain 'HostNetworkingService'
        (ConvertTo-Json -InputObject $h.networks -Depth 20 -Compress) | Should -Be (ConvertTo-Json -InputObject @($v2.networks) -Depth 20 -Compress)
        @($h.endpoints).Count | Should -Be 0
    }
    It 'no HNS surface: says so, and the other sections still come back' {
        Install-Node @{ hnsCall = $false; hnsModules = @() }
        $d = (Invoke-Collect).Json
        $d.hns.errors.source | Should -Be 'no HNS surface answered'
        @($d.hns.attempts).result | Should -Contain 'not installed'
        @($d.services.items).Count | Should -Be 4
    }
    It 'a failing list is reported with its error, the other lists are read' {
        Install-Node @{ hnsCall = $false; fail = @{ endpoints = 'The wrong diskette is in the drive.' } }
        $h = (Invoke-Collect @{ sections = @('hns') }).Json.hns
        $h.errors.endpoints | Should -Match 'wrong diskette'
        @($h.networks).Count | Should -Be @($Network.networks).Count
        @($h.attempts)[-1].result | Should -Be '3 of 4 lists read'
    }
    It 'HNSCall: HNS''s failure answer is passed through as HNS gave it' {
        Install-Node @{ fail = @{ endpoints = 'The wrong diskette is in the drive.' } }
        $h = (Invoke-Collect @{ sections = @('hns') }).Json.hns
        ($h.raw.endpoints | ConvertFrom-Json).Error | Should -Be 'The wrong diskette is in the drive.'
        ($h.raw.networks | ConvertFrom-Json).Success | Should -BeTrue
    }
    It 'a hung list is abandoned at its deadline and reported; the scan goes on' {
        Install-Node @{ hang = @{ endpoints = 20000 } }
        $watch = [Diagnostics.Stopwatch]::StartNew()
        $d = (Invoke-Collect @{ sections = @('hns', 'services'); hnsTimeoutMs = 1500 }).Json
        $watch.Elapsed.TotalSeconds | Should -BeLessThan 15
        $d.hns.timedOut | Should -BeTrue
        $d.hns.errors.endpoints | Should -Match 'timed out after 1500 ms'
        @($d.services.items).Count | Should -Be 4
    }
    It '5,000 endpoints (copies of the sample endpoint with their own IDs) come back whole' {
        $one = ConvertTo-Json -InputObject @($Endpoints.endpoints)[0] -Depth 20 -Compress
        $id = @($Endpoints.endpoints)[0].ID
        $many = foreach ($i in 1..5000) { $one.Replace($id, ('{0:x8}-0000-4000-8000-{1:x12}' -f $i, $i)) }
        $file = Join-Path $TestDrive 'hns-5k.json'
        [IO.File]::WriteAllText($file, '{"networks":[],"namespaces":[],"policyLists":[],"endpoints":[' + ($many -join ',') + ']}')
        Install-Node @{ hnsFile = $file; hns = $null }
        $r = Invoke-NodeScript -Path $Collect -Raw -Payload @{ sections = @('hns'); hnsTimeoutMs = 60000 }
        $r.Thrown | Should -BeNullOrEmpty
        # HNS's text travels inside a JSON string (quotes escaped).
        $ids = [regex]::Matches($r.Stdout, '\\"ID\\":\\"([0-9a-f]{8}-0000-4000-8000-[0-9a-f]{12})\\"') | ForEach-Object { $_.Groups[1].Value }
        @($ids | Sort-Object -Unique).Count | Should -Be 5000
        $r.Stdout | Should -Match '"attempts":\[\{"source":"HNSCall","result":"4 of 4 lists read"\}\]'
    }
}

Describe 'collect.ps1: services, processes, pipes, versions' {
    AfterEach { Install-Node }
    It 'services: state, start mode, image path, nssm parameters; a missing one is present=false' {
        $items = (Invoke-Collect @{ sections = @('services') }).Json.services.items
        $kubelet = @($items | Where-Object name -EQ 'kubelet')[0]
        $kubelet.state | Should -Be 'Running'
        $kubelet.nssm.application | Should -Be 'C:\k\kubelet.exe'
        $kubelet.nssm.parameters | Should -Be '--config=C:\var\lib\kubelet\config.yaml'
        (@($items | Where-Object name -EQ 'antrea-agent')[0]).exitCode | Should -Be 1077
        (@($items | Where-Object name -EQ 'containerd')[0]).nssm | Should -BeNullOrEmpty
        (@($items | Where-Object name -EQ 'flanneld')[0]).present | Should -BeFalse
    }
    It 'services: broken WMI falls back to the service controller and says so' {
        Install-Node @{ wmiBroken = $true }
        $s = (Invoke-Collect @{ sections = @('services') }).Json.services
        $s.source | Should -Be 'Get-Service'
        $s.error | Should -Match '^Win32_Service: '
        (@($s.items | Where-Object name -EQ 'containerd')[0]).state | Should -Be 'Running'
    }
    It 'processes: only the names asked for, with command lines' {
        $items = @((Invoke-Collect @{ sections = @('processes') }).Json.processes.items)
        $items.name | Should -Be @('kubelet.exe')
        $items[0].commandLine | Should -Be 'C:\k\kubelet.exe --config=C:\var\lib\kubelet\config.yaml'
        $items[0].pid | Should -Be 3188
    }
    It 'pipes: every name in the listing' {
        $names = @((Invoke-Collect @{ sections = @('pipes') }).Json.pipes.names)
        ($names | Sort-Object) | Should -Be @('containerd-containerd', 'lsass', 'openvswitch-ovsdb')
    }
    It 'pipes: names .NET Framework rejects as paths are listed with the rest, through FindFirstFileW (review B1)' {
        $odd = @('bad|name', 'say"hi"', '<x>', ("tab`tname"))
        foreach ($p in $odd + @('cnisock')) { [IO.File]::WriteAllText((Join-Path $Pipes $p), '') }
        try {
            # What .NET Framework's Directory.GetFiles does with this listing (the mock emulates it).
            { [CniDoctor.Pipes.Listing]::NetFrameworkGetFiles($Pipes + '/') } | Should -Throw '*Illegal characters in path*'
            [CniDoctor.Pipes.Listing]::Calls.Clear()
            $d = (Invoke-Collect @{ sections = @('pipes') }).Json
            $d.pipes.error | Should -BeNullOrEmpty
            $names = @($d.pipes.names)
            $names | Should -Contain 'cnisock'
            foreach ($p in $odd) { $names | Should -Contain $p }
            @([CniDoctor.Pipes.Listing]::Calls).Count | Should -Be 1 -Because 'the listing goes through the Win32 enumeration, not Directory.GetFiles'
        } finally {
            foreach ($p in $odd + @('cnisock')) { Remove-Item -LiteralPath (Join-Path $Pipes $p) -Force }
        }
    }
    It 'pipes: the C# the script compiles on a node builds (C# 5, kernel32 FindFirstFileW/FindNextFileW/FindClose)' {
        $text = [IO.File]::ReadAllText($Collect)
        $m = [regex]::Match($text, "(?s)\`$PIPE_LISTING = @'\r?\n(.*?)\r?\n'@")
        $m.Success | Should -BeTrue
        # Compiled under another namespace: the mock's CniDoctor.Pipes.Listing already exists here.
        $source = $m.Groups[1].Value.Replace('namespace CniDoctor.Pipes', 'namespace CniDoctor.PipesCompileCheck')
        $t = Add-Type -TypeDefinition $source -PassThru | Where-Object Name -EQ 'Listing'
        $t.GetMethod('Names').ReturnType | Should -Be ([string[]])
        $native = @($t.GetMethods([Reflection.BindingFlags]'NonPublic,Static') | Where-Object { $_.Attributes -band [Reflection.MethodAttributes]::PinvokeImpl }).Name | Sort-Object
        $native | Should -Be @('FindClose', 'FindFirstFileW', 'FindNextFileW')
    }
    It 'services: PowerShell 7''s Get-Service errors for services it may not query do not cost the fallback (review B4)' {
        $services = @(
            [ordered]@{ Name = 'WaaSMedicSvc'; State = 'Stopped'; queryDenied = $true }
            [ordered]@{ Name = 'containerd'; State = 'Running'; StartMode = 'Auto'; PathName = 'C:\k\containerd.exe'; ProcessId = 2; ExitCode = 0 }
        )
        Install-Node @{ wmiBroken = $true; services = $services }
        $r = Invoke-Collect @{ sections = @('services') }
        $s = $r.Json.services
        $s.source | Should -Be 'Get-Service'
        (@($s.items | Where-Object name -EQ 'containerd')[0]).state | Should -Be 'Running'
        (@($s.items | Where-Object name -EQ 'flanneld')[0]).present | Should -BeFalse
    }
    It 'services: a WMI failure is a CimException, reported with its message and no CLR code (review C3)' {
        Install-Node @{ wmiBroken = $true }
        $s = (Invoke-Collect @{ sections = @('services') }).Json.services
        $s.error | Should -Be 'Win32_Service: Invalid class '
    }
    It 'services: an exit code above 2^31-1 (Win32_Service''s uint32) keeps the WMI list (review C4)' {
        $services = @([ordered]@{ Name = 'containerd'; State = 'Stopped'; StartMode = 'Auto'; PathName = 'C:\k\containerd.exe'; ProcessId = 0; ExitCode = [uint32]::MaxValue })
        Install-Node @{ services = $services }
        $s = (Invoke-Collect @{ sections = @('services') }).Json.services
        $s.source | Should -Be 'Win32_Service'
        (@($s.items | Where-Object name -EQ 'containerd')[0]).exitCode | Should -Be ([uint32]::MaxValue)
    }
    It 'Antrea''s forward-slash nssm paths: the agent binary is found from its service, its stderr log is read (review L4)' {
        New-NodeFile 'C:\k\antrea\bin\antrea-agent.exe' '' | Out-Null
        New-NodeFile 'C:\k\antrea\logs\antrea-agent.err.log' 'E1204 10:00:00 boom' | Out-Null
        $registry = [ordered]@{
            'HKLM:\SYSTEM\CurrentControlSet\Services\antrea-agent\Parameters' = [ordered]@{ Application = 'c:/k/antrea/bin/antrea-agent.exe'; AppParameters = '--config c:/k/antrea/etc/antrea-agent.conf'; AppDirectory = 'c:/k/antrea'; AppStderr = 'c:/k/antrea/logs/antrea-agent.err.log' }
        }
        Install-Node @{ registry = $registry }
        $probes = @([ordered]@{ component = 'antrea'; exe = 'antrea-agent.exe'; args = @(); candidates = @() })
        $d = (Invoke-Collect @{ sections = @('processes', 'services', 'versions', 'files'); versionProbes = $probes; launchServices = @('antrea-agent') }).Json
        $v = @($d.versions.items)[0]
        $v.error | Should -BeNullOrEmpty
        $v.path | Should -Be 'c:/k/antrea/bin/antrea-agent.exe'
        $v.via | Should -Be 'service'
        $log = Get-FileItem $d 'c:/k/antrea/logs/antrea-agent.err.log'
        $log.type | Should -Be 'file'
        [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($log.contentBase64)) | Should -Be 'E1204 10:00:00 boom'
    }
    It 'versions: runs the running binary with --version; refuses arguments that are not plain flags' {
        $probes = @(
            [ordered]@{ component = 'kubelet'; exe = 'kubelet.exe'; args = @('--version'); candidates = @() }
            [ordered]@{ component = 'evil'; exe = 'kubelet.exe'; args = @('--version;', 'rm'); candidates = @('C:\k\kubelet.exe') }
            [ordered]@{ component = 'flannel'; exe = 'flanneld.exe'; args = @('--version'); candidates = @('C:\flannel\flanneld.exe', '\\server\share\flanneld.exe') }
        )
        $items = @((Invoke-Collect @{ sections = @('processes', 'services', 'versions'); versionProbes = $probes }).Json.versions.items)
        $items[0].via | Should -Be 'process'
        $items[0].path | Should -Be 'C:\k\kubelet.exe'
        $items[0].exitCode | Should -Be 0
        $items[0].stdout.Trim() | Should -Be 'Kubernetes v1.29.1'
        $items[1].stdout | Should -BeNullOrEmpty
        $items[1].path | Should -Be 'C:\k\kubelet.exe'
        $items[2].error | Should -Be 'not found'
    }
}

Describe 'collect.ps1: files from the node''s C: drive' {
    It 'a file: its bytes, size, not truncated' {
        $f = Get-FileItem (Invoke-Collect @{ paths = @('C:\etc\cni\net.d\10-antrea.conflist') }).Json 'C:\etc\cni\net.d\10-antrea.conflist'
        $f.type | Should -Be 'file'
        ConvertFrom-B64 $f.contentBase64 | Should -Be '{"name":"antrea","plugins":[{"type":"antrea"}]}'
        $f.size | Should -Be 47
        $f.truncated | Should -BeFalse
    }
    It 'a missing file is type missing without an error; its missing folder too' {
        $d = (Invoke-Collect @{ paths = @('C:\etc\cni\net.d\nope.conf', 'C:\nowhere\x\y.conf') }).Json
        (Get-FileItem $d 'C:\etc\cni\net.d\nope.conf').type | Should -Be 'missing'
        (Get-FileItem $d 'C:\nowhere\x\y.conf').type | Should -Be 'missing'
        (Get-FileItem $d 'C:\nowhere\x\y.conf').error | Should -BeNullOrEmpty
    }
    It 'access denied is an error on that file only (mode 000, no DAC override)' {
        # pester.test.ts runs pwsh without CAP_DAC_OVERRIDE, so root is refused like anyone.
        { [IO.File]::ReadAllText($Denied) } | Should -Throw
        $d = (Invoke-Collect @{ paths = @('C:\k\secret.conf', 'C:\etc\cni\net.d\10-antrea.conflist') }).Json
        $f = Get-FileItem $d 'C:\k\secret.conf'
        $f.type | Should -Be 'file'
        $f.error | Should -Match 'denied'
        $f.contentBase64 | Should -BeNullOrEmpty
        (Get-FileItem $d 'C:\etc\cni\net.d\10-antrea.conflist').error | Should -BeNullOrEmpty
    }
    It 'a conf dir: listed, configs read by suffix, other entries typed only' {
        $d = (Invoke-Collect @{ readDirs = @('C:\etc\cni\net.d') }).Json
        @((Get-FileItem $d 'C:\etc\cni\net.d').entries | Sort-Object) | Should -Be @('0-containerd-nat.json', '10-antrea.conflist', 'README.txt')
        (Get-FileItem $d 'C:\etc\cni\net.d\0-containerd-nat.json').contentBase64 | Should -Not -BeNullOrEmpty
        $readme = Get-FileItem $d 'C:\etc\cni\net.d\README.txt'
        $readme.type | Should -Be 'file'
        $readme.contentBase64 | Should -BeNullOrEmpty
    }
    It 'a log: the last maxTailBytes, marked tail and truncated' {
        $f = Get-FileItem (Invoke-Collect @{ tails = @('C:\var\log\kubelet\kubelet.log'); maxTailBytes = 100 }).Json 'C:\var\log\kubelet\kubelet.log'
        $f.tail | Should -BeTrue
        $f.truncated | Should -BeTrue
        (ConvertFrom-B64 $f.contentBase64) | Should -Match 'line 2000$'
        ([Convert]::FromBase64String($f.contentBase64)).Length | Should -Be 100
    }
    It 'a file over maxFileBytes: the first bytes, truncated' {
        $f = Get-FileItem (Invoke-Collect @{ paths = @('C:\var\log\kubelet\kubelet.log'); maxFileBytes = 64 }).Json 'C:\var\log\kubelet\kubelet.log'
        ([Convert]::FromBase64String($f.contentBase64)).Length | Should -Be 64
        $f.truncated | Should -BeTrue
    }
    It 'refuses pipes, shares, device paths and alternate data streams without touching them' {
        $bad = @('\\.\pipe\containerd-containerd', '\\server\share\x.conf', '\\?\C:\k\x', 'C:\k\x.conf:stream', 'k\relative.conf')
        $d = (Invoke-Collect @{ paths = $bad }).Json
        foreach ($p in $bad) {
            $f = Get-FileItem $d $p
            $f.type | Should -Be 'other'
            $f.error | Should -Be 'refused: not a plain local drive path'
        }
    }
    It 'a file changing while it is read gives a consistent record, never a broken document' {
        $io = New-NodeFile 'C:\k\changing.conf' ('A' * 200000)
        $writer = [PowerShell]::Create()
        [void]$writer.AddScript({
                param($Path)
                for ($i = 0; $i -lt 400; $i++) {
                    if ($i % 2 -eq 0) { [IO.File]::WriteAllText($Path, 'B' * 10) } else { [IO.File]::WriteAllText($Path, 'A' * 200000) }
                }
            }).AddArgument($io)
        $async = $writer.BeginInvoke()
        try {
            for ($n = 0; $n -lt 6; $n++) {
                $r = Invoke-Collect @{ sections = @('files'); paths = @('C:\k\changing.conf') }
                $f = Get-FileItem $r.Json 'C:\k\changing.conf'
                $f.type | Should -Be 'file'
                if ($null -eq $f.error) {
                    $text = ConvertFrom-B64 $f.contentBase64
                    $text | Should -Match '^(A*|B*)$'
                    $text.Length | Should -BeLessOrEqual 200000
                }
            }
        } finally {
            [void]$writer.EndInvoke($async)
            $writer.Dispose()
        }
    }
}

Describe 'collect.ps1: how the kubelet is started (registry, nssm, start script)' {
    BeforeAll {
        $script:Ps = 'C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe'
        New-NodeFile 'C:\k\StartKubelet.ps1' ('$cmd = "C:\k\kubelet.exe --network-plugin=cni"' + "`r`nInvoke-Expression `$cmd`r`n") | Out-Null
        New-NodeFile 'C:\k\smallsetup\common\StartKubelet.ps1' '& C:\k\kubelet.exe --config=C:\var\lib\kubelet\config.yaml' | Out-Null
        New-NodeFile 'C:\var\log\kubelet\kubelet.err.log' ("Error: failed to parse kubelet flag: unknown flag: --network-plugin`r`n" * 3) | Out-Null
        function Install-KubeletService($Parameters, $ImagePath = 'C:\Program Files\nssm\nssm.exe') {
            $registry = [ordered]@{
                'HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion'  = [ordered]@{ CurrentMajorVersionNumber = 10; CurrentMinorVersionNumber = 0; CurrentBuildNumber = '17763' }
                'HKLM:\SYSTEM\CurrentControlSet\Services\kubelet'     = [ordered]@{ ImagePath = $ImagePath }
            }
            if ($null -ne $Parameters) { $registry['HKLM:\SYSTEM\CurrentControlSet\Services\kubelet\Parameters'] = $Parameters }
            Install-Node @{ registry = $registry }
        }
        function Invoke-Launch([hashtable]$Over = @{}) {
            $payload = @{ launchServices = @('kubelet'); sections = @('services', 'files') }
            foreach ($k in $Over.Keys) { $payload[$k] = $Over[$k] }
            return (Invoke-Collect $payload).Json
        }
    }
    AfterAll { Install-Node }

    It 'nssm running powershell.exe on StartKubelet.ps1: the values, the script (same call) and AppStderr''s tail' {
        Install-KubeletService ([ordered]@{ Application = $Ps; AppParameters = '-ExecutionPolicy Bypass -NoProfile C:\k\StartKubelet.ps1'; AppDirectory = 'C:\k'; AppStderr = 'C:\var\log\kubelet\kubelet.err.log' })
        $d = Invoke-Launch
        $k = @($d.services.items | Where-Object name -EQ 'kubelet')[0]
        $k.imagePath | Should -Be 'C:\Program Files\nssm\nssm.exe'
        $k.nssm.application | Should -Be $Ps
        $k.nssm.parameters | Should -Be '-ExecutionPolicy Bypass -NoProfile C:\k\StartKubelet.ps1'
        $k.nssm.stderr | Should -Be 'C:\var\log\kubelet\kubelet.err.log'
        $k.nssmError | Should -BeNullOrEmpty
        $script = Get-FileItem $d 'C:\k\StartKubelet.ps1'
        $script.type | Should -Be 'file'
        ConvertFrom-B64 $script.contentBase64 | Should -Match '--network-plugin=cni'
        $log = Get-FileItem $d 'C:\var\log\kubelet\kubelet.err.log'
        $log.tail | Should -BeTrue
        ConvertFrom-B64 $log.contentBase64 | Should -Match 'unknown flag: --network-plugin'
    }
    It 'K2s'' quoted Invoke-Command form and a bare script name against AppDirectory' {
        Install-KubeletService ([ordered]@{ Application = $Ps; AppParameters = "-ExecutionPolicy Bypass -NoProfile `"Invoke-Command {&'C:\k\smallsetup\common\StartKubelet.ps1'}`""; AppDirectory = 'C:\k' })
        (Get-FileItem (Invoke-Launch) 'C:\k\smallsetup\common\StartKubelet.ps1').type | Should -Be 'file'
        Install-KubeletService ([ordered]@{ Application = $Ps; AppParameters = '-NoProfile -File StartKubelet.ps1'; AppDirectory = 'C:\k' })
        (Get-FileItem (Invoke-Launch) 'C:\k\StartKubelet.ps1').type | Should -Be 'file'
    }
    It 'a plain service whose ImagePath runs the script; nothing is read for a kubelet.exe ImagePath' {
        Install-KubeletService $null ('"' + $Ps + '" -File "C:\k\StartKubelet.ps1"')
        $d = Invoke-Launch
        (@($d.services.items | Where-Object name -EQ 'kubelet')[0]).nssm | Should -BeNullOrEmpty
        (Get-FileItem $d 'C:\k\StartKubelet.ps1').type | Should -Be 'file'
        Install-KubeletService $null 'C:\k\kubelet.exe --network-plugin=cni'
        $d = Invoke-Launch
        (@($d.services.items | Where-Object name -EQ 'kubelet')[0]).imagePath | Should -Be 'C:\k\kubelet.exe --network-plugin=cni'
        @($d.files.items).Count | Should -Be 0
    }
    It 'scripts on shares or in streams are never opened; only the launch services are looked at' {
        Install-KubeletService ([ordered]@{ Application = $Ps; AppParameters = '-File \\server\share\StartKubelet.ps1 C:\k\x.ps1:evil.ps1'; AppStderr = '\\server\share\err.log' })
        @((Invoke-Launch).files.items).Count | Should -Be 0
        Install-KubeletService ([ordered]@{ Application = $Ps; AppParameters = '-File C:\k\StartKubelet.ps1' })
        @((Invoke-Launch @{ launchServices = @('antrea-agent') }).files.items).Count | Should -Be 0
    }
    It 'a registry key it may not read is reported with the reason; the scan goes on' {
        Install-Node @{ registry = [ordered]@{
                'HKLM:\SYSTEM\CurrentControlSet\Services\kubelet'            = 'denied'
                'HKLM:\SYSTEM\CurrentControlSet\Services\kubelet\Parameters' = 'denied'
            }
        }
        $d = Invoke-Launch
        $k = @($d.services.items | Where-Object name -EQ 'kubelet')[0]
        $k.state | Should -Be 'Running'
        $k.imagePathError | Should -Match 'registry access is not allowed'
        $k.nssmError | Should -Match 'registry access is not allowed'
        $k.nssm | Should -BeNullOrEmpty
        $d.services.error | Should -BeNullOrEmpty
        (@($d.services.items | Where-Object name -EQ 'containerd')[0]).state | Should -Be 'Running'
    }
    It 'with WMI broken the service controller''s list still carries the registry values' {
        Install-Node @{ wmiBroken = $true; registry = [ordered]@{ 'HKLM:\SYSTEM\CurrentControlSet\Services\kubelet\Parameters' = [ordered]@{ Application = $Ps; AppParameters = '-File C:\k\StartKubelet.ps1' } } }
        $d = Invoke-Launch
        $d.services.source | Should -Be 'Get-Service'
        (@($d.services.items | Where-Object name -EQ 'kubelet')[0]).nssm.parameters | Should -Be '-File C:\k\StartKubelet.ps1'
        (Get-FileItem $d 'C:\k\StartKubelet.ps1').type | Should -Be 'file'
    }
    It 'a follow-up call (files only) reads no launch files: they came with the first' {
        Install-KubeletService ([ordered]@{ Application = $Ps; AppParameters = '-File C:\k\StartKubelet.ps1'; AppStderr = 'C:\var\log\kubelet\kubelet.err.log' })
        @((Invoke-Launch @{ sections = @('files') }).files.items).Count | Should -Be 0
    }
}
