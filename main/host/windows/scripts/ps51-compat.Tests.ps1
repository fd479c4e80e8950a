# Every script the doctor sends to a node (scripts/*.ps1) keeps to what Windows PowerShell 5.1
# runs, checked with the real PowerShell parser (testing/Ps51Compat.ps1). Run by pester.test.ts.

BeforeDiscovery {
    $script:Shipped = @(Get-ChildItem -LiteralPath $PSScriptRoot -Filter '*.ps1' | Where-Object { $_.Name -notlike '*.Tests.ps1' } | ForEach-Object { @{ Name = $_.Name; Path = $_.FullName } })
}

BeforeAll {
    . (Join-Path $PSScriptRoot '../testing/Ps51Compat.ps1')
}

Describe 'Windows PowerShell 5.1 compatibility' {
    It 'finds the shipped scripts' {
        @(Get-ChildItem -LiteralPath $PSScriptRoot -Filter '*.ps1' | Where-Object { $_.Name -notlike '*.Tests.ps1' }).Name | Should -Contain 'collect.ps1'
    }
    It '<Name> parses and uses nothing 5.1 lacks' -ForEach $Shipped {
        $problems = Test-Ps51Compat -Source ([IO.File]::ReadAllText($Path)) -Label $Name
        $problems | Should -BeNullOrEmpty -Because ($problems -join "`n")
    }
    It 'the check catches each 7-only construct (not a vacuous pass)' {
        $cases = [ordered]@{
            'ternary'          = '$a = $b ? 1 : 2'
            '??'               = '$a = $b ?? 3'
            '??='              = '$a ??= 3'
            '?.'               = '$a = ${b}?.Name'
            '?[]'              = '$a = ${b}?[0]'
            'chain &&'         = 'Get-Item x && Get-Item y'
            'chain ||'         = 'Get-Item x || Get-Item y'
            'clean'            = 'function f { process { 1 } clean { 2 } }'
            'u escape'         = '$a = "`u{2603}"'
            '-AsHashtable'     = '$x | ConvertFrom-Json -AsHashtable'
            '-AsHash (prefix)' = '$x | ConvertFrom-Json -AsHash'
            'FromJson -Depth'  = '$x | ConvertFrom-Json -Depth 5'
            '-AsArray'         = 'ConvertTo-Json -InputObject $x -AsArray'
            '-Parallel'        = '1..3 | ForEach-Object -Parallel { $_ }'
            'Test-Json'        = 'Test-Json -Json $x'
            'module-qualified' = '$x | Microsoft.PowerShell.Utility\ConvertFrom-Json -AsHashtable'
            'parse error'      = 'if ($a) { '
        }
        foreach ($k in $cases.Keys) {
            @(Test-Ps51Compat -Source $cases[$k] -Label $k).Count | Should -BeGreaterThan 0 -Because "case $k"
        }
        Test-Ps51Compat -Source '$x | ConvertFrom-Json; ConvertTo-Json -InputObject $x -Depth 20 -Compress; if ($a) { $b } else { $c }' | Should -BeNullOrEmpty
    }
}
