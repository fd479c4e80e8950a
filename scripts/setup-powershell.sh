#!/usr/bin/env bash
# What the PowerShell tests need (main/host/windows/**/*.Tests.ps1, the pwsh-backed vitest tests,
# the Windows benchmark): PowerShell 7 as a .NET global tool in ~/.dotnet/tools, and Pester
# restored from NuGet into node_modules/.cache/pester (a throwaway project's PackageReference).
# Both come from NuGet through the dotnet CLI; nothing else is downloaded. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

PWSH_VERSION=7.6.10 # 7.7.0 does not install as a global tool here
PESTER_VERSION=5.7.1
PWSH="${HOME}/.dotnet/tools/pwsh"

if ! command -v dotnet >/dev/null; then
  echo "setup-powershell: the .NET SDK (dotnet) is needed to install PowerShell and Pester" >&2
  exit 1
fi

have=""
[ -x "$PWSH" ] && have="$("$PWSH" -NoLogo -NoProfile -NonInteractive -Command '$PSVersionTable.PSVersion.ToString()' 2>/dev/null || true)"
if [ "$have" != "$PWSH_VERSION" ]; then
  dotnet tool uninstall --global PowerShell >/dev/null 2>&1 || true
  dotnet tool install --global PowerShell --version "$PWSH_VERSION"
fi

dest="node_modules/.cache/pester"
if [ ! -f "$dest/pester/$PESTER_VERSION/tools/Pester.psd1" ]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  cat >"$tmp/restore.csproj" <<CSPROJ
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>netstandard2.0</TargetFramework></PropertyGroup>
  <ItemGroup><PackageReference Include="Pester" Version="$PESTER_VERSION" /></ItemGroup>
</Project>
CSPROJ
  dotnet restore "$tmp/restore.csproj" --packages "$PWD/$dest" >/dev/null
fi
echo "setup-powershell: $("$PWSH" -NoLogo -NoProfile -NonInteractive -Command '"PowerShell " + $PSVersionTable.PSVersion.ToString()'), Pester $PESTER_VERSION"
