# Mock of the PSGallery HNS module (hns.v2.psm1, v2 field names) for tests on Linux.
. (Join-Path $PSScriptRoot '../../../../HnsMock.ps1')
function Get-HnsNetwork { Get-MockHnsList 'networks' }
function Get-HnsEndpoint { Get-MockHnsList 'endpoints' }
function Get-HnsNamespace { Get-MockHnsList 'namespaces' }
function Get-HnsPolicyList { Get-MockHnsList 'policyLists' }
Export-ModuleMember -Function Get-HnsNetwork, Get-HnsEndpoint, Get-HnsNamespace, Get-HnsPolicyList
