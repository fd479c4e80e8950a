# Windows PowerShell 5.1 compatibility check for the scripts the doctor sends to nodes (Server
# Core nodes run 5.1). It parses with the real PowerShell parser and reports what 5.1 cannot run:
# - syntax added in PowerShell 6/7: ternary `a ? b : c`, `??` and `??=`, `?.` and `?[]`, pipeline
#   chains `&&` / `||`, the `clean` block, "`u{...}" escapes (5.1 reads them as literal text);
# - cmdlets and parameters that 5.1 does not have (ConvertFrom-Json -AsHashtable/-Depth/
#   -NoEnumerate, ConvertTo-Json -AsArray/-EnumsAsStrings/-EscapeHandling, ForEach-Object
#   -Parallel, Get-Content -AsByteStream, Test-Json, Join-String, Get-Error, ...).
# The 7 parser accepts a superset of 5.1's syntax, so "parses here and has none of these" is the
# check; a script that does not parse at all is reported too.

$script:Ps7OnlyParameters = @{
    'ConvertFrom-Json' = @('AsHashtable', 'Depth', 'NoEnumerate', 'DateKind')
    'ConvertTo-Json'   = @('AsArray', 'EnumsAsStrings', 'EscapeHandling')
    'ForEach-Object'   = @('Parallel', 'ThrottleLimit', 'AsJob', 'UseNewRunspace', 'TimeoutSeconds')
    'Get-Content'      = @('AsByteStream')
    'Set-Content'      = @('AsByteStream')
    'Add-Content'      = @('AsByteStream')
    'Import-Module'    = @('UseWindowsPowerShell', 'SkipEditionCheck')
    'Start-Process'    = @('Environment')
    'Select-String'    = @('Raw', 'NoEmphasis')
    'Invoke-WebRequest' = @('SkipCertificateCheck', 'Resume', 'SslProtocol')
    'Invoke-RestMethod' = @('SkipCertificateCheck', 'StatusCodeVariable', 'ResponseHeadersVariable')
    'Test-Connection'  = @('TargetName', 'TcpPort', 'Traceroute')
    'Out-File'         = @('NoNewline')
}
$script:Ps7OnlyCommands = @('Test-Json', 'Join-String', 'Get-Error', 'Remove-Alias', 'Get-Uptime', 'ConvertFrom-Markdown', 'Clear-RecycleBin', 'ConvertTo-CliXml', 'ConvertFrom-CliXml')

function Test-Ps51Compat {
    param([Parameter(Mandatory)][string]$Source, [string]$Label = 'script')
    $tokens = $null
    $errors = $null
    $ast = [System.Management.Automation.Language.Parser]::ParseInput($Source, [ref]$tokens, [ref]$errors)
    $problems = New-Object System.Collections.Generic.List[string]
    foreach ($e in @($errors)) { $problems.Add(('{0}:{1}: parse error: {2}' -f $Label, $e.Extent.StartLineNumber, $e.Message)) }
    $at = { param($node) '{0}:{1}' -f $Label, $node.Extent.StartLineNumber }
    $nodes = $ast.FindAll({ $true }, $true)
    foreach ($n in $nodes) {
        $type = $n.GetType().Name
        if ($type -eq 'TernaryExpressionAst') { $problems.Add((& $at $n) + ': ternary operator (PowerShell 7)') }
        elseif ($type -eq 'PipelineChainAst') { $problems.Add((& $at $n) + ': pipeline chain && / || (PowerShell 7)') }
        elseif ($type -eq 'BinaryExpressionAst' -and [string]$n.Operator -eq 'QuestionQuestion') { $problems.Add((& $at $n) + ': ?? operator (PowerShell 7)') }
        elseif ($type -eq 'AssignmentStatementAst' -and [string]$n.Operator -eq 'QuestionQuestionEquals') { $problems.Add((& $at $n) + ': ??= operator (PowerShell 7)') }
        elseif (($type -eq 'MemberExpressionAst' -or $type -eq 'InvokeMemberExpressionAst' -or $type -eq 'IndexExpressionAst') -and $n.NullConditional) { $problems.Add((& $at $n) + ': null-conditional ?. / ?[] (PowerShell 7)') }
        elseif ($type -eq 'ScriptBlockAst' -and $null -ne $n.CleanBlock) { $problems.Add((& $at $n) + ': clean block (PowerShell 7.3)') }
        elseif (($type -eq 'ExpandableStringExpressionAst' -or ($type -eq 'StringConstantExpressionAst' -and [string]$n.StringConstantType -like 'DoubleQuoted*')) -and $n.Extent.Text -match '`u\{') { $problems.Add((& $at $n) + ': `u{} escape (PowerShell 6)') }
        elseif ($type -eq 'CommandAst') {
            $name = $n.GetCommandName()
            if ($null -eq $name) { continue }
            $short = $name.Substring($name.LastIndexOf('\') + 1)
            if ($Ps7OnlyCommands -contains $short) { $problems.Add((& $at $n) + (': {0} does not exist in 5.1' -f $short)); continue }
            $bad = $Ps7OnlyParameters[$short]
            if ($null -eq $bad) { continue }
            foreach ($el in $n.CommandElements) {
                if ($el -isnot [System.Management.Automation.Language.CommandParameterAst]) { continue }
                # Parameters may be abbreviated (-AsHash); any unique prefix of a 7-only one counts.
                foreach ($p in $bad) {
                    if ($p.StartsWith($el.ParameterName, [StringComparison]::OrdinalIgnoreCase) -and $el.ParameterName.Length -ge 2) {
                        $problems.Add((& $at $el) + (': {0} -{1} is PowerShell 6/7 only' -f $short, $p))
                    }
                }
            }
        }
    }
    return $problems.ToArray()
}
