# The four HNS list cmdlets of a mock node, shared by the HostNetworkingService (v1) and HNS (v2)
# mock modules. The lists come from what Install-MockWindowsNode stored in the AppDomain (parsed
# once there), so a cmdlet costs next to nothing and the collection script's own cost is what a
# benchmark measures. A list can be told to fail or to hang, as HNS does (docs/knowledge/windows-node.md#scale).
function Get-MockHnsList([string]$Kind) {
    $node = [AppDomain]::CurrentDomain.GetData('cni-doctor.mock-node')
    if ($null -eq $node) { throw 'HNS mock: no mock node is installed in this process' }
    $hang = $node.hang.$Kind
    if ($null -ne $hang) { Start-Sleep -Milliseconds ([int]$hang) }
    $fail = $node.fail.$Kind
    if ($null -ne $fail) { throw ([string]$fail) }
    foreach ($item in @($node.hns.$Kind)) { if ($null -ne $item) { $item } }
}
