import { describe, expect, it } from 'vitest';
import { scriptKubeletFlags } from './kubelet-script';
import { launchScriptPaths } from '../../conventions/windows-launch';

const P = 'C:\\k\\StartKubelet.ps1';
const named = (text: string): [string, number | undefined, string | undefined][] =>
  scriptKubeletFlags(text, P).flags.map((f) => [f.name, f.line, f.value]);

describe('scriptKubeletFlags', () => {
  it("sig-windows-tools' StartKubelet.ps1: the $cmd line's flags with their line; docker's --format is not the kubelet's", () => {
    const text = [
      '$FileContent = Get-Content -Path "/var/lib/kubelet/kubeadm-flags.env"',
      "$global:KubeletArgs = $FileContent.TrimStart('KUBELET_KUBEADM_ARGS=').Trim('\"')",
      'if ($global:containerRuntime -eq "Docker") {',
      '    $netId = docker network ls -f name=host --format "{{ .ID }}"',
      '}',
      '$cmd = "C:\\k\\kubelet.exe $global:KubeletArgs --hostname-override=$(hostname) --pod-infra-container-image=`"mcr.microsoft.com/oss/kubernetes/pause:3.6`" --enforce-node-allocatable=`"`" --network-plugin=cni --image-pull-progress-deadline=20m"',
      'Invoke-Expression $cmd',
    ].join('\r\n');
    expect(named(text)).toEqual([
      ['hostname-override', 6, '$(hostname'],
      ['pod-infra-container-image', 6, 'mcr.microsoft.com/oss/kubernetes/pause:3.6'],
      ['enforce-node-allocatable', 6, ''],
      ['network-plugin', 6, 'cni'],
      ['image-pull-progress-deadline', 6, '20m'],
    ]);
    expect(scriptKubeletFlags(text, P).startsKubelet).toBe(true);
  });

  it('microsoft/SDN start-kubelet.ps1: a multi-line @( … ) array, one flag per line, a commented one left out', () => {
    const text = [
      'Param($LogDir = "C:\\k")',
      '$kubeletArgs = @(',
      '    "--hostname-override=$(hostname)"',
      '#   "--allow-privileged=true"',
      '    "--network-plugin=cni"',
      '    "--cni-bin-dir=""c:\\k\\cni"""',
      ')',
      '& c:\\k\\kubelet.exe $kubeletArgs',
    ].join('\n');
    expect(named(text).map(([n, l]) => [n, l])).toEqual([
      ['hostname-override', 3],
      ['network-plugin', 5],
      ['cni-bin-dir', 6],
    ]);
  });

  it('backtick continuation, a block comment, and an argument appended to $KubeletArgs', () => {
    const text = [
      '<#',
      '  & C:\\k\\kubelet.exe --docker-endpoint=npipe:////./pipe/docker_engine',
      '#>',
      '$global:KubeletArgs += " --cert-dir=$env:SYSTEMDRIVE\\var\\lib\\kubelet\\pki"',
      '& C:\\k\\kubelet.exe `',
      '    --config=C:\\var\\lib\\kubelet\\config.yaml `',
      '    --cni-conf-dir=C:\\k\\cni\\config  # dockershim era',
      'Write-Host "--not-a-flag" # no kubelet named on this statement',
    ].join('\n');
    expect(named(text)).toEqual([
      ['cert-dir', 4, '$env:SYSTEMDRIVE\\var\\lib\\kubelet\\pki'],
      ['config', 6, 'C:\\var\\lib\\kubelet\\config.yaml'],
      ['cni-conf-dir', 7, 'C:\\k\\cni\\config'],
    ]);
  });

  it('a script that never names the kubelet does not start it; an empty or hostile text does not throw', () => {
    expect(scriptKubeletFlags('Start-Service containerd\n', P)).toEqual({
      flags: [],
      startsKubelet: false,
    });
    expect(scriptKubeletFlags('', P).startsKubelet).toBe(false);
    const hostile = `"${'('.repeat(50_000)}kubelet --x`;
    expect(scriptKubeletFlags(hostile, P).flags.map((f) => f.name)).toEqual(['x']);
  });
});

describe('launchScriptPaths', () => {
  it('finds the script of each known service command line', () => {
    expect(
      launchScriptPaths('"C:\\ps.exe" -ExecutionPolicy Bypass -NoProfile C:\\k\\StartKubelet.ps1'),
    ).toEqual(['C:\\k\\StartKubelet.ps1']);
    expect(
      launchScriptPaths('"C:\\ps.exe" -File "C:\\Program Files\\k\\start kubelet.ps1"'),
    ).toEqual(['C:\\Program Files\\k\\start kubelet.ps1']);
    expect(
      launchScriptPaths(
        `"C:\\ps.exe" -NoProfile "Invoke-Command {&'C:\\k2s\\smallsetup\\common\\StartKubelet.ps1'}"`,
      ),
    ).toEqual(['C:\\k2s\\smallsetup\\common\\StartKubelet.ps1']);
    expect(launchScriptPaths('"C:\\ps.exe" -File StartKubelet.ps1', 'C:\\k\\')).toEqual([
      'C:\\k\\StartKubelet.ps1',
    ]);
  });
  it('takes nothing that is not a plain local .ps1', () => {
    expect(launchScriptPaths('"C:\\ps.exe" -File StartKubelet.ps1', '\\\\server\\share')).toEqual(
      [],
    );
    expect(
      launchScriptPaths('-File \\\\server\\share\\x.ps1 C:\\k\\x.ps1:s.ps1 C:\\k\\a.ps1x'),
    ).toEqual([]);
    expect(launchScriptPaths('C:\\k\\kubelet.exe --network-plugin=cni')).toEqual([]);
  });
});
