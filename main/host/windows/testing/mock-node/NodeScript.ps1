# Runs one of the shipped scripts the way the doctor sends it (build-script.ts,
# build-repair-script.ts): a first line that decodes the caller's data from base64 into $in, then
# the script unchanged, as one script block. Returns what the script wrote to the console (the
# scripts write their JSON with [Console]::Out) and what it threw, if anything.
function Invoke-NodeScript {
    param(
        [Parameter(Mandatory)][string]$Path,
        [Parameter(Mandatory)]$Payload,
        # Leave the output unparsed (big documents: the caller matches what it needs).
        [switch]$Raw
    )
    $json = ConvertTo-Json -InputObject $Payload -Depth 20 -Compress
    $b64 = [Convert]::ToBase64String([Text.Encoding]::UTF8.GetBytes($json))
    $first = "`$in = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('" + $b64 + "')) | ConvertFrom-Json"
    $text = $first + "`n" + [IO.File]::ReadAllText($Path)
    $saved = [Console]::Out
    $writer = New-Object IO.StringWriter
    $thrown = $null
    [Console]::SetOut($writer)
    try {
        & ([ScriptBlock]::Create($text)) | Out-Null
    } catch {
        $thrown = $_.Exception.Message
    } finally {
        [Console]::SetOut($saved)
    }
    $stdout = $writer.ToString()
    $doc = $null
    $line = @($stdout -split "`r?`n" | Where-Object { $_.StartsWith('{') })
    if ($line.Count -gt 0 -and -not $Raw) { $doc = $line[-1] | ConvertFrom-Json }
    return [pscustomobject]@{ Stdout = $stdout; Json = $doc; Thrown = $thrown }
}
