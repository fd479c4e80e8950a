// Windows log signatures: lines from containerd, kubelet, kube-proxy, HNS/HCN (hcsshim) and the
// Windows CNI plugins (Antrea, flannel, Calico, nat/sdnbridge/sdnoverlay) that explain a pod
// stuck in ContainerCreating / FailedCreatePodSandBox (docs/knowledge/log-signatures-windows.md#log-lines-cni-doctor-recognises-windows, plus docs/knowledge/windows-containerd.md#the-case-that-started-it-antrea-loses-to-a-nat-config, docs/knowledge/windows-containerd.md#paths-and-defaults, docs/knowledge/windows-cni-agents.md#flannel, docs/knowledge/windows-node.md#services-restart-order-and-logs).
//
// Pattern conventions are those of signatures-linux.ts. Windows paths may appear with doubled
// backslashes in structured logs (err="open \\\\.\\pipe\\cnisock"), hence `\\+` between parts.
import type { LogSignature } from './types';

export const windowsSignatures: readonly LogSignature[] = [
  // --- containerd netns vs dockershim-era plugins -----------------------------------------
  {
    id: 'windows.antrea.unexpected-netns',
    platform: 'windows',
    pattern: String.raw`unexpected netNS`,
    literal: 'unexpected netNS',
    example: 'Cannot get infra container ID, unexpected netNS:',
    title: "The Antrea CNI does not understand containerd's network namespace",
    explanation:
      'containerd hands the CNI an HCN namespace GUID, while Antrea releases written for dockershim expect "none" or "container:<id>". Pod networking cannot be set up.',
    fix: 'Upgrade Antrea to v0.13 or later (containerd support), run it in containerd mode, and make sure its config is the one containerd uses.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-1',
      'docs/knowledge/windows-containerd.md#the-case-that-started-it-antrea-loses-to-a-nat-config',
    ],
    attachesTo: 'windows.netns.unsupported',
  },
  {
    id: 'windows.antrea.docker-unsupported',
    platform: 'windows',
    pattern: String.raw`Docker runtime is not supported after Antrea 2\.0 for Windows Nodes`,
    literal: 'Docker runtime is not supported after Antrea',
    example: 'Docker runtime is not supported after Antrea 2.0 for Windows Nodes',
    title: 'Antrea 2.x received a dockershim-style call',
    explanation:
      'Antrea 2.0 dropped Docker on Windows; it rejects the dockershim netns form, so the node must run containerd.',
    fix: 'Move the node to containerd, or stay on an Antrea 1.x release while it still runs Docker.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-3',
      'docs/knowledge/windows-cni-agents.md#antrea',
    ],
    attachesTo: 'windows.netns.unsupported',
  },
  {
    id: 'windows.cni.endpoint-without-namespace',
    platform: 'windows',
    pattern: String.raw`cannot create endpoint without a namespace`,
    literal: 'cannot create endpoint without a namespace',
    example: 'cannot create endpoint without a namespace',
    title: 'The CNI plugin was called without a network namespace',
    explanation:
      "nat, sdnbridge and sdnoverlay need the HCN namespace that containerd's CRI creates; calls from dockershim or plain ctr pass none.",
    fix: 'Create pods through the kubelet with containerd (CRI), not through ctr or dockershim.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-12',
      'docs/knowledge/windows-containerd.md#the-nat-plugin',
    ],
    attachesTo: 'windows.netns.unsupported',
  },
  {
    id: 'windows.hns.provision-endpoint',
    platform: 'windows',
    pattern: String.raw`error while ProvisionEndpoint\(.*failed to find HNSEndpoint`,
    literal: 'ProvisionEndpoint',
    example:
      'error while ProvisionEndpoint(<id>_flannel.4096,…): failed to find HNSEndpoint … not found',
    title: 'A dockershim-era plugin (win-overlay / win-bridge) is used with containerd',
    explanation:
      'win-overlay and win-bridge attach endpoints the HNS v1 way, which does not work with the HCN namespaces containerd creates, so the endpoint is never found.',
    fix: 'Switch the CNI config to sdnoverlay / sdnbridge (the containerd-era plugins).',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-9',
      'docs/knowledge/windows-containerd.md#namespaces-not-dockershim-netns',
    ],
    attachesTo: 'windows.netns.unsupported',
  },
  {
    id: 'windows.ctr.invalid-guid',
    platform: 'windows',
    pattern: String.raw`panic: invalid GUID length`,
    literal: 'invalid GUID length',
    example: 'panic: invalid GUID length',
    title: 'ctr --cni passed a Linux-style netns on Windows',
    explanation:
      'Old ctr builds crash when run with --cni on Windows. This does not affect pods created by the kubelet.',
    fix: 'Test with crictl or through the kubelet instead of ctr run --cni.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-26',
      'docs/knowledge/windows-containerd.md#namespaces-not-dockershim-netns',
    ],
    topic: 'log.ctr.cni-netns',
    severity: 'info',
  },

  // --- Antrea agent -----------------------------------------------------------------------
  {
    id: 'windows.antrea.cnisock-missing',
    platform: 'windows',
    pattern: String.raw`\\{1,4}\.\\{1,4}pipe\\{1,4}cnisock.*([Tt]he system cannot find the file specified|not found)`,
    literal: String.raw`\cnisock`,
    example: String.raw`Error while dialing open \\.\pipe\cnisock: The system cannot find the file specified`,
    title: String.raw`antrea-agent is not listening on its pipe \\.\pipe\cnisock`,
    explanation:
      'The antrea CNI binary forwards every pod request to antrea-agent over this named pipe. The pipe does not exist, so the agent is not running (or not ready), and every pod on the node fails at network setup.',
    fix: 'Start or restart the antrea-agent service (after ovs-vswitchd when OVS runs as a service) and check its log in C:\\k\\antrea\\logs or c:\\var\\log\\antrea.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-2',
      'docs/knowledge/windows-containerd.md#the-case-that-started-it-antrea-loses-to-a-nat-config',
      'docs/knowledge/windows-cni-agents.md#antrea',
    ],
    attachesTo: 'windows.cnisock.missing',
  },
  {
    id: 'windows.antrea.hostnetwork-unsupported',
    platform: 'windows',
    pattern: String.raw`hcnCreateNetwork failed in Win32: Invalid JSON document string`,
    literal: 'Invalid JSON document string',
    example: 'hcnCreateNetwork failed in Win32: Invalid JSON document string. (0x803b001b)',
    title: 'antrea-agent runs as a pod where containerd cannot give it host networking',
    explanation:
      'Running the agent as a pod needs host-network (HostProcess) support, which older containerd on Windows lacks; the agent cannot create its HNS network.',
    fix: 'Run antrea-agent as a Windows service, or use containerd 1.6+ with Antrea 1.10+ for the HostProcess DaemonSet.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-4',
      'docs/knowledge/windows-cni-agents.md#antrea',
    ],
    topic: 'log.antrea.hostnetwork-unsupported',
  },
  {
    id: 'windows.antrea.mtu-vnic',
    platform: 'windows',
    pattern: String.raw`failed to configure MTU on container interface`,
    literal: 'failed to configure MTU on container interface',
    example: "failed to configure MTU on container interface 'vEthernet (…)'",
    title: "Antrea tried to set the MTU before the pod's vNIC existed",
    explanation:
      "With containerd the pod's virtual NIC appears only after the sandbox starts; older Antrea releases configure it too early and fail.",
    fix: 'Upgrade Antrea (the fix shipped in the 1.2 / 1.4 releases).',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-6',
      'docs/knowledge/windows-cni-agents.md#antrea',
    ],
    topic: 'log.antrea.mtu-vnic',
  },

  // --- CNI config / plugin binaries (containerd) ------------------------------------------
  {
    id: 'windows.containerd.no-network-config',
    platform: 'windows',
    pattern: String.raw`no network config found in [^ :]*`,
    literal: 'no network config found in',
    example: 'no network config found in <dir>',
    title: 'containerd found no CNI config in its conf dir',
    explanation:
      "containerd's conf_dir holds no .conf, .conflist or .json file. On Windows the CNI installer (sig-windows-tools, Calico) and containerd often disagree on the folder: C:\\etc\\cni\\net.d versus C:\\Program Files\\containerd\\cni\\conf.",
    fix: "Put the CNI config where containerd's config.toml conf_dir points (or change conf_dir), then restart containerd.",
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-7',
      'docs/knowledge/windows-containerd.md#which-config-wins',
    ],
    attachesTo: 'cni.conf.none',
  },
  {
    id: 'windows.cri.network-not-ready',
    platform: 'windows',
    pattern: String.raw`NetworkReady=false reason:NetworkPluginNotReady`,
    literal: 'NetworkPluginNotReady',
    example:
      'NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
    title: 'containerd reports its pod network as not ready',
    explanation:
      'No usable CNI config is loaded; the node is NotReady and pods wait. containerd may keep reporting this until it is restarted, even after the config is fixed.',
    fix: 'Fix the CNI config directory (see the other findings), then Restart-Service containerd.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-7',
      'docs/knowledge/windows-containerd.md#which-config-wins',
    ],
    attachesTo: 'cri.network.not-ready',
  },
  {
    id: 'windows.cni.plugin-not-found',
    platform: 'windows',
    pattern: String.raw`failed to find plugin \\*"[^"]+" in path \[`,
    literal: 'failed to find plugin ',
    example: 'failed to find plugin "<type>" in path [<bin_dir>]',
    title: "A CNI plugin .exe is missing from containerd's bin dir",
    explanation:
      'The config in use names a plugin type that has no <type>.exe in the directories listed in brackets, so every pod fails at network setup.',
    fix: 'Copy the plugin into the configured bin dir (e.g. C:\\opt\\cni\\bin or C:\\Program Files\\containerd\\cni\\bin), or point bin_dir(s) at the folder that has it.',
    kb: ['docs/knowledge/log-signatures-windows.md#windows-8'],
    attachesTo: 'cni.plugin.missing',
  },

  // --- HNS networks that should exist ------------------------------------------------------
  {
    id: 'windows.flannel.network-not-found',
    platform: 'windows',
    pattern: String.raw`GETHNSNe(tw|wt)orkByName\([^)]*\): Network [^ ]+ not found`,
    literal: 'orkByName(',
    example: 'error while GETHNSNewtorkByName(flannel.4096): Network flannel.4096 not found',
    title: 'The flannel HNS network does not exist (yet)',
    explanation:
      'The CNI plugin or kube-proxy looked for the overlay network flanneld creates, and it is not there: flanneld is not running or failed to create it.',
    fix: 'Check flanneld on this node and its net-conf (VNI 4096, port 4789 for VXLAN); the network appears once flanneld is healthy.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-10',
      'docs/knowledge/windows-cni-agents.md#flannel',
    ],
    attachesTo: 'hns.network.missing',
  },
  {
    id: 'windows.hcn.network-not-found',
    platform: 'windows',
    pattern: String.raw`Network name \\*"[^"\\]*\\*" not found`,
    literal: 'Network name ',
    example: 'Network name "<name>" not found',
    title: 'The HNS network named by the CNI config does not exist',
    explanation:
      'hcsshim could not find an HNS network with the name the CNI config asks for, so no pod endpoint can be created on it.',
    fix: 'Create the network (for the nat plugin: New-HnsNetwork -Type NAT -Name <name>) or restart the CNI agent that creates it; check the config\'s "name".',
    kb: ['docs/knowledge/log-signatures-windows.md#windows-11'],
    attachesTo: 'hns.network.missing',
  },
  {
    id: 'windows.kube-proxy.network-not-found',
    platform: 'windows',
    pattern: String.raw`Unable to find HNS Network specified by`,
    literal: 'Unable to find HNS Network specified by',
    example:
      'Unable to find HNS Network specified by %s. Please check network name and CNI deployment',
    title: 'kube-proxy is waiting for an HNS network that does not exist',
    explanation:
      'kube-proxy loops until the network named by --network-name / KUBE_NETWORK exists; services do not work on this node meanwhile.',
    fix: 'Make sure the CNI agent creates that network, or correct the network name given to kube-proxy.',
    kb: ['docs/knowledge/windows-node.md#services-restart-order-and-logs'],
    attachesTo: 'hns.network.missing',
  },
  {
    id: 'windows.kube-proxy.network-name-unset',
    platform: 'windows',
    pattern: String.raw`Environment variable KUBE_NETWORK and network-flag not initialized`,
    literal: 'KUBE_NETWORK and network-flag not initialized',
    example: 'Environment variable KUBE_NETWORK and network-flag not initialized',
    title: 'kube-proxy does not know which HNS network to use',
    explanation:
      'Neither --network-name nor KUBE_NETWORK is set, so kube-proxy cannot program services.',
    fix: "Set KUBE_NETWORK (or --network-name) to the CNI's HNS network name, e.g. flannel.4096 or Calico.*.",
    kb: ['docs/knowledge/windows-node.md#services-restart-order-and-logs'],
    topic: 'log.kube-proxy.network-name',
  },
  {
    id: 'windows.docker.host-network-missing',
    platform: 'windows',
    pattern: String.raw`Error response from daemon: network host not found`,
    literal: 'network host not found',
    example: 'Error response from daemon: network host not found',
    title: 'A Linux DaemonSet (or host-network pod) landed on a Docker Windows node',
    explanation:
      'Docker on Windows has no "host" network unless one is created, so pods asking for it fail. Usually a Linux flannel DaemonSet without a nodeSelector.',
    fix: 'Add a Linux nodeSelector to the DaemonSet; on dockershim-era nodes create the network with docker network create -d nat host.',
    kb: ['docs/knowledge/log-signatures-windows.md#windows-27'],
    topic: 'log.docker.host-network-missing',
  },

  // --- HNS endpoints and policies ---------------------------------------------------------
  {
    id: 'windows.hcn.endpoint-not-found',
    platform: 'windows',
    pattern: String.raw`Endpoint name \\*"[^"\\]*\\*" not found`,
    literal: 'Endpoint name ',
    example: 'Endpoint name "<name>" not found',
    title: 'An HNS endpoint the plugin expected is gone',
    explanation:
      'The endpoint was removed (HNS restart, manual clean-up) while something still refers to it.',
    fix: 'Restart the CNI agent / kube-proxy so they recreate their endpoints; recreate affected pods.',
    kb: ['docs/knowledge/log-signatures-windows.md#windows-11'],
    topic: 'log.hns.endpoint-not-found',
  },
  {
    id: 'windows.hns.endpoint-exists',
    platform: 'windows',
    pattern: String.raw`failed to create the new HNSEndpoint: .*The object already exists`,
    literal: 'The object already exists',
    example:
      'failed to create the new HNSEndpoint: hnsCall failed in Win32: The object already exists. (0x1392)',
    title: 'A leftover HNS endpoint with the same name blocks the pod',
    explanation:
      'An endpoint from an earlier attempt of this pod still exists, so HNS refuses to create it again.',
    fix: 'Remove the stale endpoint (Get-HnsEndpoint | ? Name -eq <name> | Remove-HnsEndpoint) and let the kubelet retry.',
    kb: ['docs/knowledge/log-signatures-windows.md#windows-18'],
    attachesTo: 'hns.endpoint.stale',
  },
  {
    id: 'windows.hns.policy-invalid',
    platform: 'windows',
    pattern: String.raw`The provided policy configuration is invalid or missing parameters`,
    literal: 'policy configuration is invalid',
    example:
      'hcnCreateEndpoint failed in Win32: The provided policy configuration is invalid or missing parameters. (0x803b000d)',
    title: 'HNS rejected the endpoint or load-balancer policy',
    explanation:
      'The policy JSON from the CNI config or kube-proxy does not fit this Windows build (e.g. ROUTE vs SDNROUTE, an OutBoundNAT exception list, a wrong service CIDR).',
    fix: "Check the CNI config's policies against the OS version (HNS v1 vs v2 names) and the service CIDR.",
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-15',
      'docs/knowledge/windows-cni-agents.md#calico',
    ],
    topic: 'log.hns.policy-invalid',
  },
  {
    id: 'windows.hns.expected-policy-missing',
    platform: 'windows',
    pattern: String.raw`HNS failed with error : An expected policy was not found`,
    literal: 'An expected policy was not found',
    example: 'Policy creation failed: HNS failed with error : An expected policy was not found.',
    title: 'This Windows build lacks HNS features the overlay needs',
    explanation: 'Overlay networking needs Windows Server 1809 with KB4489899 or later.',
    fix: "Update the node's OS.",
    kb: ['docs/knowledge/windows-cni-agents.md#flannel'],
    topic: 'log.hns.os-too-old',
  },
  {
    id: 'windows.kube-proxy.port-exists',
    platform: 'windows',
    pattern: String.raw`hcnCreateLoadBalancer failed in Win32: The specified port already exists`,
    literal: 'The specified port already exists',
    example:
      'Policy creation failed: hcnCreateLoadBalancer failed in Win32: The specified port already exists.',
    title: 'kube-proxy cannot create load balancers: ports exhausted or orphaned policies',
    explanation:
      'Ephemeral ports are used up or old load-balancer policies are left behind, so services stop working on this node.',
    fix: 'Enable DSR or widen the port range, delete orphaned load balancers and restart kube-proxy.',
    kb: ['docs/knowledge/log-signatures-windows.md#windows-23'],
    topic: 'log.kube-proxy.port-exhaustion',
  },
  {
    id: 'windows.kube-proxy.source-vip-flag',
    platform: 'windows',
    pattern: String.raw`unable to create proxier: source-vip flag not set`,
    literal: 'source-vip flag not set',
    example: 'unable to create proxier: source-vip flag not set',
    title: 'kube-proxy (overlay) has no source VIP',
    explanation:
      'In overlay mode kube-proxy needs --source-vip, normally read from sourceVip.json prepared by the CNI start script.',
    fix: 'Regenerate the source VIP file (delete a stale one when the node rejoined) and restart kube-proxy.',
    kb: ['docs/knowledge/log-signatures-windows.md#windows-25'],
    topic: 'log.kube-proxy.source-vip',
  },
  {
    id: 'windows.kube-proxy.source-vip-endpoint',
    platform: 'windows',
    pattern: String.raw`Source Vip endpoint creation failed`,
    literal: 'Source Vip endpoint creation failed',
    example:
      'Source Vip endpoint creation failed: hcnCreateEndpoint failed in Win32: An address provided is invalid or reserved. (0x803b002f)',
    title: 'kube-proxy could not create its source VIP endpoint',
    explanation:
      'The source VIP address is invalid or already reserved, typically a stale sourceVip.json from before the node rejoined.',
    fix: 'Delete the stale source VIP files, let the start script regenerate them, restart kube-proxy.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-25',
      'docs/knowledge/windows-cni-agents.md#flannel',
    ],
    topic: 'log.kube-proxy.source-vip',
  },
  {
    id: 'windows.calico.endpoint-attached',
    platform: 'windows',
    pattern: String.raw`This endpoint is already attached to the switch`,
    literal: 'already attached to the switch',
    example: 'This endpoint is already attached to the switch. (0x803b0014)',
    title: "Calico's host endpoint is already attached",
    explanation:
      'Calico tried to re-attach its Calico_ep host endpoint, which HNS still has attached.',
    fix: 'Delete the Calico_ep endpoint and restart the Calico services.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-24',
      'docs/knowledge/windows-cni-agents.md#calico',
    ],
    topic: 'log.calico.host-endpoint-attached',
  },

  // --- HNS networks: creation and corruption ----------------------------------------------
  {
    id: 'windows.hns.uplink-conflict',
    platform: 'windows',
    pattern: String.raw`hnsCall failed in Win32: The parameter is incorrect`,
    literal: 'The parameter is incorrect',
    example: 'hnsCall failed in Win32: The parameter is incorrect. (0x57)',
    title: 'Another HNS network already owns the uplink adapter',
    explanation:
      'The CNI agent tried to bind its network to an adapter that a different HNS virtual switch already uses (or picked a virtual adapter as uplink).',
    fix: 'Remove the conflicting L2Bridge / External network or tell the agent which physical adapter to use.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-5',
      'docs/knowledge/windows-cni-agents.md#antrea',
    ],
    topic: 'log.hns.network-conflict',
  },
  {
    id: 'windows.hcn.create-network-conflict',
    platform: 'windows',
    pattern: String.raw`hcnCreateNetwork failed in Win32: The parameter is incorrect`,
    literal: 'The parameter is incorrect',
    example: 'hcnCreateNetwork failed in Win32: The parameter is incorrect. (0x57)',
    title: 'HNS refused to create a network that conflicts with an existing one',
    explanation:
      'A network with conflicting settings (adapter, subnet) already exists, so kube-proxy or the CNI cannot create theirs.',
    fix: 'List the HNS networks (Get-HnsNetwork) and remove the one that conflicts.',
    kb: ['docs/knowledge/log-signatures-windows.md#windows-21'],
    topic: 'log.hns.network-conflict',
  },
  {
    id: 'windows.hns.adapter-not-found',
    platform: 'windows',
    pattern: String.raw`An adapter was not found`,
    literal: 'An adapter was not found',
    example: '"Error":"An adapter was not found. ","ErrorCode":2151350278',
    title: 'New-HnsNetwork found no usable network adapter',
    explanation:
      'HNS could not find the physical adapter to bind the network to (often an adapter name that differs from "Ethernet", e.g. on VMware).',
    fix: 'Pass -AdapterName with the real adapter name (Get-NetAdapter).',
    kb: ['docs/knowledge/log-signatures-windows.md#windows-22'],
    topic: 'log.hns.adapter-not-found',
  },
  {
    id: 'windows.hns.element-not-found',
    platform: 'windows',
    pattern: String.raw`HNS failed with error : Element not found`,
    literal: 'Element not found',
    example: 'Failed to create endpoint: HNS failed with error : Element not found.',
    title: 'HNS state is inconsistent',
    explanation: 'HNS refers to objects that no longer exist, so endpoints cannot be created.',
    fix: 'Remove stale HNS objects; if that does not help, restart the HNS service (pods lose connectivity briefly).',
    kb: ['docs/knowledge/log-signatures-windows.md#windows-19'],
    topic: 'log.hns.state-corrupt',
  },
  {
    id: 'windows.hns.unspecified-error',
    platform: 'windows',
    pattern: String.raw`HNS failed with error : Unspecified error`,
    literal: 'Unspecified error',
    example: 'HNS failed with error : Unspecified error.',
    title: 'HNS failed after a crash left its state corrupt',
    explanation:
      'After a crash or blue screen HNS can be left with broken state and fail every request.',
    fix: 'Clean the HNS state (remove stale networks and endpoints; as a last resort stop HNS, delete HNS.data, start HNS).',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-28',
      'docs/knowledge/windows-node.md#services-restart-order-and-logs',
    ],
    topic: 'log.hns.state-corrupt',
  },
  {
    id: 'windows.hns.wrong-diskette',
    platform: 'windows',
    pattern: String.raw`The wrong diskette is in the drive`,
    literal: 'The wrong diskette is in the drive',
    example: 'hnsCall failed in Win32: The wrong diskette is in the drive.',
    title: 'HNS objects from before a Windows update are incompatible',
    explanation:
      'HNS objects created before an OS update cannot be read by the updated HNS (this odd text is the Win32 error it reports).',
    fix: 'Delete the old objects with hnsdiag or, as a last resort, stop HNS, delete HNS.data and start HNS again.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-20',
      'docs/knowledge/windows-node.md#services-restart-order-and-logs',
    ],
    topic: 'log.hns.state-corrupt',
  },
  {
    id: 'windows.ipam.range-failed',
    platform: 'windows',
    pattern: String.raw`failed to allocate for range`,
    literal: 'failed to allocate for range',
    example: 'network: failed to allocate for range',
    title: 'host-local IPAM has no free pod address (leaked reservations)',
    explanation:
      "IP reservations from deleted pods were never released, so the node's range is exhausted.",
    fix: "Stop the node's services, remove the HNS endpoints (Get-HNSEndpoint | Remove-HNSEndpoint) and clear the IPAM store under c:\\var, then start again.",
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-14',
      'docs/knowledge/windows-node.md#services-restart-order-and-logs',
    ],
    topic: 'log.ipam.exhausted',
  },

  // --- CNI agents (flannel, Calico) and the sandbox container ----------------------------
  {
    id: 'windows.flannel.subnet-env-missing',
    platform: 'windows',
    pattern: String.raw`run[/\\]{1,2}flannel[/\\]{1,2}subnet\.env: (no such file or directory|The system cannot find the (file|path) specified)`,
    literal: 'subnet.env: ',
    example: 'open /run/flannel/subnet.env: no such file or directory',
    title: 'flanneld has not written C:\\run\\flannel\\subnet.env',
    explanation:
      'The flannel CNI plugin needs the subnet file flanneld writes once it has a lease for this node; flanneld is not running or not ready.',
    fix: 'Start flanneld (check its log); the file appears once it has a subnet.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-13',
      'docs/knowledge/windows-cni-agents.md#flannel',
    ],
    topic: 'log.flannel.subnet-env-missing',
  },
  {
    id: 'windows.flannel.management-ip',
    platform: 'windows',
    pattern: String.raw`failed to get management IP from HostComputeNetwork`,
    literal: 'failed to get management IP from HostComputeNetwork',
    example: 'timeout, failed to get management IP from HostComputeNetwork <name>',
    title: "flanneld gave up waiting for its HNS network's management IP",
    explanation:
      "flanneld waits only a few seconds for the network's management address; a slow or wrong adapter makes it fail.",
    fix: 'Check which adapter the network binds to and restart flanneld.',
    kb: ['docs/knowledge/windows-cni-agents.md#flannel'],
    topic: 'log.flannel.management-ip',
  },
  {
    id: 'windows.calico.management-ip',
    platform: 'windows',
    pattern: String.raw`timed out waiting for interface matching the management IP`,
    literal: 'timed out waiting for interface matching the management IP',
    example: 'timed out waiting for interface matching the management IP (<ip>) of network Calico',
    title: "Calico's network is bound to the wrong adapter or not up",
    explanation:
      'No adapter carries the management IP of the Calico network (wrong NIC picked on a multi-NIC host, or the vNIC is not up).',
    fix: 'Make sure the External and Calico networks use the node IP as ManagementIP; check adapter and firewall.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-16',
      'docs/knowledge/windows-cni-agents.md#calico',
    ],
    topic: 'log.calico.management-ip',
  },
  {
    id: 'windows.hcs.attach-namespace-failed',
    platform: 'windows',
    pattern: String.raw`The requested operation for attach namespace failed`,
    literal: 'The requested operation for attach namespace failed',
    example:
      'hcsshim::CreateComputeSystem <id>: The requested operation for attach namespace failed.',
    title: 'The pod sandbox could not join its network namespace',
    explanation:
      "The endpoint the CNI put into the pod's namespace is invalid (often bad values in the CNI config), which surfaces only when the sandbox container starts.",
    fix: 'Fix the CNI config values, delete the endpoint and let the kubelet retry.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-17',
      'docs/knowledge/windows-containerd.md#namespaces-not-dockershim-netns',
    ],
    topic: 'log.hcs.attach-namespace',
  },
  // --- the kubelet's command line -----------------------------------------------------------
  {
    id: 'windows.kubelet.removed-flag',
    platform: 'windows',
    pattern: String.raw`unknown flag: --(network-plugin|network-plugin-mtu|cni-conf-dir|cni-bin-dir|cni-cache-dir|docker-endpoint|experimental-dockershim-root-directory|image-pull-progress-deadline|container-runtime)([^-]|$)`,
    literal: 'unknown flag: --',
    example: 'Error: failed to parse kubelet flag: unknown flag: --network-plugin',
    title: 'The kubelet is started with a flag its release removed',
    explanation:
      'StartKubelet.ps1 scripts written for dockershim pass --network-plugin=cni and --image-pull-progress-deadline; kubelet 1.24 and later exit on them, and the kubelet service restarts it in a loop.',
    fix: 'Remove the flags from the script (or the nssm AppParameters / service ImagePath) that starts the kubelet, then restart the kubelet service.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-29',
      'docs/knowledge/windows-node.md#how-the-kubelet-is-started',
    ],
    attachesTo: 'kubelet.flags.removed',
  },
  {
    id: 'windows.kubelet.unknown-flag',
    platform: 'windows',
    pattern: String.raw`unknown flag: --[A-Za-z0-9]`,
    literal: 'unknown flag: --',
    example: 'F0709 11:25:37.135712    3088 server.go:156] unknown flag: --allow-privileged',
    title: 'A program on the node exits at start on a flag it does not know',
    explanation:
      'The kubelet (and the other Go programs a Windows node runs) refuse unknown flags and exit before doing anything, so their service restarts them in a loop and the node stays NotReady.',
    fix: 'Find the flag in the script, nssm AppParameters or service ImagePath that starts the program, and remove it or replace it with its KubeletConfiguration field.',
    kb: [
      'docs/knowledge/log-signatures-windows.md#windows-30',
      'docs/knowledge/windows-node.md#how-the-kubelet-is-started',
    ],
    topic: 'log.kubelet.unknown-flag',
    severity: 'error',
  },
];
