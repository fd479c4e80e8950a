// Linux log signatures: lines from containerd, CRI-O, cri-dockerd, kubelet, kubeadm, runc and
// CNI plugins that explain a pod stuck in sandbox creation. Each cites its row of
// docs/knowledge/log-signatures-linux.md (where the line was seen upstream) and the knowledge
// page that explains it.
//
// Pattern conventions (so the same text works in JS and in `grep -E`):
// - `\\*"` instead of `"` where a quote may arrive escaped (klog/logrus print err="...\"x\"...").
// - no \d \s \w, no lookarounds, no lazy quantifiers; backslashes only to escape metacharacters.
import type { LogSignature } from './types';

export const linuxSignatures: readonly LogSignature[] = [
  // --- Network readiness (the runtime says "no CNI") -------------------------------------
  {
    id: 'linux.cri.network-not-ready',
    platform: 'linux',
    pattern: String.raw`NetworkReady=false reason:NetworkPluginNotReady`,
    literal: 'NetworkPluginNotReady',
    example:
      'NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
    title: 'The container runtime reports its pod network as not ready',
    explanation:
      'The runtime has no usable CNI configuration loaded, so the kubelet keeps the node NotReady and every new pod waits in ContainerCreating. The text after "message:" names the runtime\'s own reason.',
    fix: 'Read the other findings for the reason (no config, a broken config sorted first, wrong conf dir). After fixing the file, restart the runtime if the conf dir was deleted and recreated.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-1',
      'docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from',
    ],
    attachesTo: 'cri.network.not-ready',
  },
  {
    id: 'linux.containerd.no-network-config',
    platform: 'linux',
    pattern: String.raw`no network config found in [^ :]+`,
    literal: 'no network config found in',
    example:
      'cni config load failed: no network config found in /etc/cni/net.d: cni plugin not initialized: failed to load cni config',
    title: 'containerd found no CNI config file in its conf dir',
    explanation:
      'containerd looked in the directory named in the message and found no .conf, .conflist or .json file, so it cannot give pods a network. Often the CNI agent has not written its file yet, or containerd looks in a different directory than the one the CNI installer uses.',
    fix: 'Make sure the cluster CNI writes its config into the directory containerd reads (conf_dir in config.toml), or point conf_dir at the directory that holds it; then check that the CNI DaemonSet pod is running on this node.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-2',
      'docs/knowledge/cni-loading.md#containerds-loader',
    ],
    attachesTo: 'cni.conf.none',
  },
  {
    id: 'linux.containerd.cni-init-failed',
    platform: 'linux',
    pattern: String.raw`failed to load cni during init`,
    literal: 'failed to load cni during init',
    example:
      'failed to load cni during init, please check CRI plugin status before setting up network for pods',
    title: 'containerd could not load any CNI config when it started',
    explanation:
      'At start-up containerd tried to load the CNI configuration and failed; until a later file change triggers a successful reload, it reports the network as not ready and pod sandboxes cannot be created.',
    fix: 'Fix the CNI config directory (see the other findings). containerd ignores files that are only created or chmod-ed, so rewrite the file in place or restart containerd afterwards.',
    kb: ['docs/knowledge/cni-loading.md#how-containerds-cri-uses-the-loader'],
    attachesTo: 'cri.network.not-ready',
  },
  {
    id: 'linux.containerd.cni-reload-failed',
    platform: 'linux',
    pattern: String.raw`failed to reload cni configuration after receiving fs change event`,
    literal: 'failed to reload cni configuration',
    example: 'failed to reload cni configuration after receiving fs change event(...)',
    title: 'containerd failed to reload the CNI config after a file changed',
    explanation:
      'Something wrote to the CNI conf dir and the reload that followed failed, so containerd is now running with no usable network config. A half-written file (a non-atomic write caught mid-way) is a common cause.',
    fix: 'Look at the error after the event for the file at fault; write CNI configs atomically (temporary file, then rename) and validate the JSON before dropping it into the directory.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-4',
      'docs/knowledge/cni-loading.md#how-containerds-cri-uses-the-loader',
    ],
    topic: 'log.cni.reload-failed',
    generic: true,
  },
  {
    id: 'linux.crio.cni-reload-failed',
    platform: 'linux',
    pattern: String.raw`CNI config loading failed, continue monitoring`,
    literal: 'CNI config loading failed',
    example: 'CNI config loading failed, continue monitoring: %v',
    title: 'CRI-O failed to reload the CNI config directory',
    explanation:
      'CRI-O noticed a change in its network or plugin directory and could not load the result; it keeps watching, but until a reload succeeds it may have no default network.',
    fix: 'Fix the file named in the error (see the other CNI findings); CRI-O retries on the next change in the directory.',
    kb: ['docs/knowledge/cri-o.md#what-ocicni-logs'],
    topic: 'log.cni.reload-failed',
    generic: true,
  },
  {
    id: 'linux.crio.cni-not-ready-waiting',
    platform: 'linux',
    pattern: String.raw`CNI plugin not ready\. Waiting to create`,
    literal: 'CNI plugin not ready',
    example: 'CNI plugin not ready. Waiting to create %s',
    title: 'CRI-O is holding pod creation until a CNI network is ready',
    explanation:
      'CRI-O has no default CNI network loaded, so it blocks every new pod sandbox instead of failing it; pods sit in ContainerCreating.',
    fix: 'Give CRI-O a valid config in network_dir (and, if cni_default_network is set, one whose name matches it).',
    kb: ['docs/knowledge/cri-o.md#the-crionetwork-table'],
    attachesTo: 'cri.network.not-ready',
  },
  {
    id: 'linux.crio.no-cni-config',
    platform: 'linux',
    pattern: String.raw`[Nn]o CNI configuration file in [^ ]+\. Has your network provider started`,
    literal: 'CNI configuration file in',
    example:
      'Network plugin returns error: no CNI configuration file in /etc/cni/net.d/. Has your network provider started?',
    title: 'CRI-O has no CNI network to use',
    explanation:
      'CRI-O found no valid config in its network_dir, or cni_default_network names a network that no loaded file defines. The node stays NotReady and pods wait for a network.',
    fix: 'Install the cluster CNI (or wait for its agent to write the config); if cni_default_network is set in crio.conf or crio.conf.d, set it to the name inside the cluster config or remove it.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-30',
      'docs/knowledge/cri-o.md#the-crionetwork-table',
    ],
    attachesTo: 'cni.conf.none',
  },
  {
    id: 'linux.dockershim.cni-uninitialized',
    platform: 'linux',
    pattern: String.raw`network plugin is not ready: cni config uninitialized`,
    literal: 'cni config uninitialized',
    example: 'docker: network plugin is not ready: cni config uninitialized',
    title: 'dockershim / cri-dockerd has no CNI config loaded',
    explanation:
      'cri-dockerd (or the old in-kubelet dockershim) found no valid network config, so it reports the network as not ready and pods cannot get an address.',
    fix: 'Install the cluster CNI config into the directory given by --cni-conf-dir, and check that --network-plugin=cni is set for cri-dockerd.',
    kb: ['docs/knowledge/log-signatures-linux.md#linux-31'],
    attachesTo: 'cni.conf.none',
  },
  {
    id: 'linux.dockershim.no-networks',
    platform: 'linux',
    pattern: String.raw`Unable to update cni config: no (valid )?networks found in`,
    literal: 'Unable to update cni config',
    example: 'Unable to update cni config: no networks found in /etc/cni/net.d',
    title: 'dockershim / cri-dockerd found no usable network in the CNI conf dir',
    explanation:
      'Either the directory holds no config, or every config was rejected while loading (for example because a plugin binary it names is missing). Without one, pods cannot be networked.',
    fix: 'Look for "failed to find plugin" lines just before this one; install the missing CNI plugins or the cluster config.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-7',
      'docs/knowledge/log-signatures-linux.md#linux-31',
    ],
    attachesTo: 'cni.conf.none',
  },
  {
    id: 'linux.cni.teardown-not-initialized',
    platform: 'linux',
    pattern: String.raw`failed to destroy network for (sandbox|container|pod sandbox).*(cni plugin not initialized|cni config uninitialized)`,
    literal: 'failed to destroy network for ',
    example:
      'RemovePodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to forcibly stop sandbox \\"<id>\\": failed to destroy network for sandbox \\"<id>\\": cni plugin not initialized',
    title: 'Old pod sandboxes cannot be removed because no CNI config is loaded',
    explanation:
      'Tearing down a sandbox also needs a working CNI config. All configs were removed or became invalid while sandboxes still existed (typical during a CNI swap or kubeadm reset), so these sandboxes are stuck.',
    fix: 'Put back any valid CNI config (even a temporary bridge) so the runtime can tear the sandboxes down, let the cleanup finish, then install the intended CNI.',
    kb: ['docs/knowledge/log-signatures-linux.md#linux-46'],
    attachesTo: 'cni.conf.none',
  },

  // --- Broken CNI config files ------------------------------------------------------------
  {
    id: 'linux.containerd.cni-conf-parse-error',
    platform: 'linux',
    pattern: String.raw`failed to load CNI config (list )?file [^ ]+: .*invalid cni config`,
    literal: 'failed to load CNI config',
    example:
      'failed to load CNI config list file /etc/cni/net.d/10-calico.conflist: error parsing configuration list: unexpected end of JSON input: invalid cni config: failed to load cni config',
    title: 'containerd cannot parse a CNI config file',
    explanation:
      'containerd stops at the first file it cannot parse. If that file sorts before the config you expect to be used, the whole node has no pod network, even though a good config sits next to it.',
    fix: 'Repair the named file (valid JSON, a "type", or "name" and "plugins" for a .conflist) or rename it to a non-loaded extension such as .disabled.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-4',
      'docs/knowledge/log-signatures-linux.md#linux-5',
      'docs/knowledge/cni-loading.md#containerds-loader',
    ],
    attachesTo: 'cni.conf.invalid',
  },
  {
    id: 'linux.cni.conf-missing-type',
    platform: 'linux',
    pattern: String.raw`missing 'type'`,
    literal: "missing 'type'",
    example:
      "failed to load CNI config file <f>.conf: error parsing configuration: missing 'type': invalid cni config",
    title: 'A CNI .conf file holds a config list',
    explanation:
      'The file has the .conf extension, so it is read as a single plugin config, but its content is a list ("plugins": [...]) with no top-level "type". Packages that renamed .conflist files to .conf cause this.',
    fix: 'Rename the file to .conflist (same content), or disable it if another config should be used.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-5',
      'docs/knowledge/cni-loading.md#each-runtime-loads-differently',
    ],
    attachesTo: 'cni.conf.invalid',
  },
  {
    id: 'linux.dockershim.conf-is-conflist',
    platform: 'linux',
    pattern: String.raw`no 'type'; perhaps this is a \.conflist`,
    literal: 'perhaps this is a .conflist',
    example: "Error loading CNI config file: no 'type'; perhaps this is a .conflist?",
    title: 'cri-dockerd skipped a .conf file that holds a config list',
    explanation:
      'The file is named .conf but contains a list ("plugins": [...]); cri-dockerd skips it and uses the next config, or none.',
    fix: 'Rename the file to .conflist (same content), or disable it if another config should be used.',
    kb: [
      'docs/knowledge/cni-loading.md#each-runtime-loads-differently',
      'docs/knowledge/log-signatures-linux.md#linux-5',
    ],
    attachesTo: 'cni.conf.invalid',
  },
  {
    id: 'linux.crio.cni-conf-load-error',
    platform: 'linux',
    pattern: String.raw`Error loading CNI config (list )?file`,
    literal: 'Error loading CNI config',
    example: 'Error loading CNI config list file %s: %v',
    title: 'CRI-O / cri-dockerd skipped a CNI config it could not parse',
    explanation:
      'The file was skipped and the runtime moved on to the next one. If the skipped file is the cluster CNI, pods end up on whatever config sorts next (often a runtime default bridge) or on none at all.',
    fix: 'Repair or rename the named file so the intended config is the first one that parses.',
    kb: [
      'docs/knowledge/cri-o.md#what-ocicni-logs',
      'docs/knowledge/cni-loading.md#each-runtime-loads-differently',
    ],
    attachesTo: 'cni.conf.invalid',
  },
  {
    id: 'linux.crio.cni-conf-convert-error',
    platform: 'linux',
    pattern: String.raw`Error converting CNI config file [^ ]+ to list`,
    literal: 'Error converting CNI config file',
    example: 'Error converting CNI config file %s to list: %v',
    title: 'CRI-O could not turn a single-plugin .conf into a config list',
    explanation: 'The .conf file parsed but could not be converted to a list, so CRI-O skipped it.',
    fix: 'Rewrite the file as a .conflist with "name", "cniVersion" and "plugins", or remove it.',
    kb: ['docs/knowledge/cri-o.md#what-ocicni-logs'],
    attachesTo: 'cni.conf.invalid',
  },
  {
    id: 'linux.crio.duplicate-network-name',
    platform: 'linux',
    pattern: String.raw`Ignored CNI network [^ ]+ \(type=[^)]*\) at [^ ]+ because already exists`,
    literal: 'because already exists',
    example: 'Ignored CNI network %s (type=%v) at %s because already exists',
    title: 'CRI-O ignored a CNI config whose network name is already taken',
    explanation:
      'Two config files declare the same network "name"; CRI-O keeps the first (in file-name order) and ignores the later one, which may be the one you just installed.',
    fix: 'Remove or disable the stale file so only one config carries that network name.',
    kb: ['docs/knowledge/cri-o.md#what-ocicni-logs'],
    attachesTo: 'cni.conf.multiple',
  },
  {
    id: 'linux.containerd.cni-version-empty',
    platform: 'linux',
    pattern: String.raw`invalid version \\*"\\*": the version is empty`,
    literal: 'the version is empty',
    example:
      'failed to destroy network for sandbox "<id>": invalid version "": the version is empty',
    title: 'A CNI config without cniVersion breaks sandbox teardown',
    explanation:
      'containerd 1.6.0 to 1.6.3 refuse a config list that has no "cniVersion" when stopping a sandbox, so old pods cannot be cleaned up.',
    fix: 'Add a "cniVersion" to the config (for example "0.4.0" or "1.0.0"), and upgrade containerd to 1.6.4 or later.',
    kb: ['docs/knowledge/log-signatures-linux.md#linux-10'],
    topic: 'log.cni.version-empty',
  },
  {
    id: 'linux.cni.missing-network-name',
    platform: 'linux',
    pattern: String.raw`networkPlugin cni failed to (set up|teardown) pod .* network: missing network name`,
    literal: 'missing network name',
    example: 'networkPlugin cni failed to set up pod "<pod>" network: missing network name',
    title: 'A CNI config has no "name" (usually a legacy loopback file)',
    explanation:
      'A config without "name" is rejected by the plugin when a pod is set up. The usual culprit is an old CRI-O loopback file (99-loopback.conf or 200-loopback.conf) that the runtime picked.',
    fix: 'Add "name": "loopback" and a current cniVersion to that file, or disable it.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-36',
      'docs/knowledge/cni-loading.md#load-order-on-a-real-node',
    ],
    topic: 'log.cni.missing-network-name',
  },

  // --- Plugin binaries and versions --------------------------------------------------------
  {
    id: 'linux.cni.plugin-not-found',
    platform: 'linux',
    pattern: String.raw`failed to find plugin \\*"[^"]+" in path \[`,
    literal: 'failed to find plugin ',
    example:
      'failed to setup network for sandbox "<id>": plugin type="flannel" failed (add): failed to find plugin "flannel" in path [/opt/cni/bin]',
    title: "A CNI plugin binary is missing from the runtime's bin dir",
    explanation:
      'The config in use names a plugin type that has no executable in the directories the runtime searches (listed in brackets), so every pod sandbox fails at network setup.',
    fix: "Install the plugin into one of the listed directories, or point the runtime's CNI bin dir at the directory where the CNI installer put it.",
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-6',
      'docs/knowledge/log-signatures-linux.md#linux-7',
      'docs/knowledge/cni-loading.md#error-strings-from-libcni-and-plugins',
    ],
    attachesTo: 'cni.plugin.missing',
  },
  {
    id: 'linux.cni.loopback-missing',
    platform: 'linux',
    pattern: String.raw`failed to find plugin \\*"loopback\\*" in path`,
    literal: 'failed to find plugin ',
    example: 'failed to find plugin "loopback" in path [/opt/cni/bin]',
    title: 'The standard CNI plugins (loopback) are not installed',
    explanation:
      'containerd always sets up a loopback network for each pod, and configs commonly chain bridge/portmap. On Docker or bare containerd installs the reference plugins are often absent, so nothing can start.',
    fix: "Install the containernetworking-plugins (kubernetes-cni) package or release tarball into the runtime's CNI bin dir, then restart the runtime.",
    kb: ['docs/knowledge/log-signatures-linux.md#linux-43'],
    attachesTo: 'cni.plugin.missing',
  },
  {
    id: 'linux.crio.plugin-dirs-mismatch',
    platform: 'linux',
    pattern: String.raw`Error validating CNI config file [^ ]+: \[?failed to find plugin`,
    literal: 'Error validating CNI config file',
    example:
      'Error validating CNI config file /etc/cni/net.d/10-calico.conflist: [failed to find plugin "calico" in path [/usr/libexec/cni]]',
    title: 'CRI-O skipped a CNI config because its plugin is not in plugin_dirs',
    explanation:
      'CRI-O checks binaries when it loads configs and silently falls back to the next config (often its own bridge) when one is missing. Distributions that set plugin_dirs to /usr/libexec/cni miss vendors that install into /opt/cni/bin.',
    fix: 'Add the directory that holds the plugin (usually /opt/cni/bin/) to plugin_dirs in a crio.conf.d drop-in and restart CRI-O.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-8',
      'docs/knowledge/cri-o.md#the-crionetwork-table',
    ],
    attachesTo: 'cni.plugin.missing',
  },
  {
    id: 'linux.cni.plugin-version-unsupported',
    platform: 'linux',
    pattern: String.raw`plugin [^ ]+ does not support config version \\*"`,
    literal: 'does not support config version',
    example:
      'Error validating CNI config file /etc/cni/net.d/<n>.conflist: [plugin bridge does not support config version "1.0.0" plugin portmap does not support config version "1.0.0" ...]',
    title: "CNI plugins are older than the config's cniVersion",
    explanation:
      'The installed plugin binaries do not understand the cniVersion the config declares, so the runtime rejects the config at load time.',
    fix: "Upgrade the CNI plugins (containernetworking-plugins 1.0 or later for cniVersion 1.0.0), or lower the config's cniVersion to one they support.",
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-42',
      'docs/knowledge/cni-loading.md#error-strings-from-libcni-and-plugins',
    ],
    attachesTo: 'cni.version.unsupported',
  },
  {
    id: 'linux.cni.incompatible-versions',
    platform: 'linux',
    pattern: String.raw`incompatible CNI versions[;:] config is \\*"`,
    literal: 'incompatible CNI versions',
    example:
      'incompatible CNI versions; config is "1.0.0", plugin supports ["0.1.0" "0.2.0" "0.3.0" "0.3.1" "0.4.0"]',
    title: "A CNI plugin refused the config's cniVersion",
    explanation:
      "At pod setup a plugin reported that it only supports older CNI spec versions than the config asks for (old kubernetes-cni 0.8.x binaries, or containerd 1.6.3's loopback), so the sandbox fails.",
    fix: "Upgrade the plugins to a release that supports the config's version, or lower cniVersion in the config.",
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-9',
      'docs/knowledge/cni-loading.md#error-strings-from-libcni-and-plugins',
    ],
    attachesTo: 'cni.version.unsupported',
  },

  // --- CNI-specific runtime failures (no rule covers them: log.<topic>) -------------------
  {
    id: 'linux.flannel.cni0-address',
    platform: 'linux',
    pattern: String.raw`"[^" \\]+\\*" already has an IP address different from`,
    literal: 'already has an IP address different from',
    example:
      'failed to delegate add: failed to set bridge addr: "cni0" already has an IP address different from 10.244.1.1/24',
    title: 'A leftover cni0 bridge has an address from an old pod CIDR',
    explanation:
      'The bridge interface was created by a previous cluster or CNI with a different subnet (kubeadm reset does not remove it), so the bridge plugin refuses to reuse it and pods cannot start.',
    fix: 'Drain the node, then delete the stale bridge (ip link set cni0 down; ip link delete cni0, and flannel.1 for flannel), clear /var/lib/cni and restart the CNI agent.',
    kb: ['docs/knowledge/log-signatures-linux.md#linux-11'],
    topic: 'log.flannel.cni0-address',
  },
  {
    id: 'linux.flannel.subnet-env-missing',
    platform: 'linux',
    pattern: String.raw`/run/flannel/subnet\.env: no such file or directory`,
    literal: 'flannel/subnet.env',
    example:
      'plugin type="flannel" failed (add): open /run/flannel/subnet.env: no such file or directory',
    title: 'flannel has not written its subnet file yet',
    explanation:
      'The flannel CNI plugin reads /run/flannel/subnet.env, which the flanneld agent writes once it has a subnet for this node. It is missing when flanneld is not running or the node has no podCIDR (kubeadm init without --pod-network-cidr).',
    fix: "Check the kube-flannel pod on this node and its logs; make sure the cluster allocates pod CIDRs matching flannel's net-conf.",
    kb: ['docs/knowledge/log-signatures-linux.md#linux-12'],
    topic: 'log.flannel.subnet-env-missing',
  },
  {
    id: 'linux.calico.nodename-missing',
    platform: 'linux',
    pattern: String.raw`stat /var/lib/calico/nodename: no such file or directory`,
    literal: 'calico/nodename',
    example:
      'plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/',
    title: 'calico-node is not running on this node',
    explanation:
      'The Calico CNI plugin needs the file calico-node writes at start-up; without it every pod add (and delete) on this node fails.',
    fix: 'Look at the calico-node pod on this node (crash loop, image pull, missing hostPath /var/lib/calico) and get it running.',
    kb: ['docs/knowledge/log-signatures-linux.md#linux-13'],
    topic: 'log.calico.nodename-missing',
  },
  {
    id: 'linux.calico.unauthorized',
    platform: 'linux',
    pattern: String.raw`error getting ClusterInformation: connection is unauthorized`,
    literal: 'connection is unauthorized',
    example:
      'plugin type="calico" failed (add): error getting ClusterInformation: connection is unauthorized: Unauthorized',
    title: "The Calico CNI plugin's API token is no longer valid",
    explanation:
      'The kubeconfig Calico writes for its CNI plugin holds an expired or invalid token, so the plugin cannot reach the API server to set up pods.',
    fix: 'Restart calico-node on this node so it regenerates /etc/cni/net.d/calico-kubeconfig.',
    kb: ['docs/knowledge/log-signatures-linux.md#linux-14'],
    topic: 'log.calico.unauthorized',
  },
  {
    id: 'linux.bridge.ipv6-disabled',
    platform: 'linux',
    pattern: String.raw`could not add IP address to \\*"[^"\\]+\\*": permission denied`,
    literal: 'could not add IP address to',
    example:
      'plugin type="bridge" failed (add): failed to set bridge addr: could not add IP address to "cni0": permission denied',
    title: 'The bridge config asks for IPv6 on a host with IPv6 disabled',
    explanation:
      "A dual-stack bridge config (such as CRI-O's default) tries to put an IPv6 address on the bridge, which the kernel refuses when IPv6 is disabled.",
    fix: 'Use an IPv4-only config (for CRI-O: 11-crio-ipv4-bridge.conflist) or remove the IPv6 ranges from the config.',
    kb: ['docs/knowledge/log-signatures-linux.md#linux-29'],
    topic: 'log.bridge.ipv6-disabled',
  },
  {
    id: 'linux.ipam.range-exhausted',
    platform: 'linux',
    pattern: String.raw`no IP addresses available in range set`,
    literal: 'no IP addresses available in range set',
    example:
      'failed to allocate for range 0: no IP addresses available in range set: 10.244.1.1-10.244.1.254',
    title: "The node's pod IP range is used up by leaked reservations",
    explanation:
      'host-local IPAM keeps one file per assigned IP; reservations leaked by reboots or runtime swaps fill the range, so new pods get no address.',
    fix: 'Drain the node, remove the IP files under /var/lib/cni/networks/<network>/ that belong to no running pod, and restart the runtime.',
    kb: ['docs/knowledge/log-signatures-linux.md#linux-32'],
    topic: 'log.ipam.exhausted',
  },
  {
    id: 'linux.cilium.agent-unreachable',
    platform: 'linux',
    pattern: String.raw`unable to connect to Cilium daemon`,
    literal: 'unable to connect to Cilium daemon',
    example:
      'plugin type="cilium-cni" failed (add): unable to connect to Cilium daemon: ... dial unix /var/run/cilium/cilium.sock: connect: no such file or directory',
    title: 'The Cilium config is in use but the Cilium agent is not there',
    explanation:
      'Either the Cilium agent has not started yet, or Cilium was uninstalled and left its 05-cilium config behind; that file still wins the config order, so every pod goes to a plugin that cannot work.',
    fix: 'If Cilium is meant to run, fix the cilium agent pod. If it was removed, rename its leftover config in /etc/cni/net.d and restart the runtime.',
    kb: ['docs/knowledge/log-signatures-linux.md#linux-40'],
    topic: 'log.cilium.agent-unreachable',
  },
  {
    id: 'linux.antrea.agent-unreachable',
    platform: 'linux',
    pattern: String.raw`dial unix /var/run/antrea/cni\.sock: connect: no such file or directory`,
    literal: 'antrea/cni.sock',
    example:
      'transport: Error while dialing dial unix /var/run/antrea/cni.sock: connect: no such file or directory',
    title: 'The Antrea CNI plugin cannot reach antrea-agent',
    explanation:
      'The antrea CNI binary forwards every request to antrea-agent over a socket; the socket is missing, so the agent is not running on this node.',
    fix: 'Check the antrea-agent pod on this node and its logs.',
    kb: [
      'https://github.com/antrea-io/antrea/issues/832',
      'https://github.com/antrea-io/antrea/blob/fc70f2b/pkg/cni/default.go',
    ],
    topic: 'log.antrea.agent-unreachable',
  },
  {
    id: 'linux.multus.ifname-conflict',
    platform: 'linux',
    pattern: String.raw`requested interface name \\*"[^"\\]*\\*" already assigned`,
    literal: 'already assigned',
    example:
      'KillPodSandboxError: "rpc error: code = Unknown desc = failed to destroy network for pod sandbox k8s_<pod>_<ns>_<uid>_0(<id>): network \\"multus-cni-network\\" requested interface name \\"eth0\\" already assigned"',
    title: 'Multus and CRI-O disagree about interface names',
    explanation:
      "CRI-O's interface bookkeeping conflicts with the Multus config, so sandboxes cannot be torn down (and pods hang in Terminating or ContainerCreating).",
    fix: 'Pin Multus to a version known to work with this CRI-O or fix its config; force-delete the stuck pods once fixed.',
    kb: ['docs/knowledge/log-signatures-linux.md#linux-47'],
    topic: 'log.multus.ifname-conflict',
  },
  {
    id: 'linux.crio.requested-network-missing',
    platform: 'linux',
    pattern: String.raw`failed to find requested network name`,
    literal: 'failed to find requested network name',
    example: 'failed to find requested network name %s',
    title: 'A pod asked CRI-O for a CNI network that is not loaded',
    explanation:
      'The pod (usually through an annotation) names a network that no loaded config defines, so CRI-O cannot set it up.',
    fix: "Create or fix the config that should define that network name, or correct the pod's annotation.",
    kb: ['docs/knowledge/cri-o.md#what-ocicni-logs'],
    topic: 'log.crio.requested-network-missing',
  },
  {
    id: 'linux.sandbox.containerd-network-setup-failed',
    platform: 'linux',
    pattern: String.raw`failed to setup network for sandbox`,
    literal: 'failed to setup network for sandbox',
    example:
      'failed to setup network for sandbox "<id>": plugin type="flannel" failed (add): failed to find plugin "flannel" in path [/opt/cni/bin]',
    title: 'containerd could not set up the network of a pod sandbox',
    explanation:
      'This is the error behind FailedCreatePodSandBox on containerd; the text after it is what the CNI plugin reported.',
    fix: "Read the plugin's error at the end of the line; other findings usually name the cause.",
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-6',
      'docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from',
    ],
    topic: 'log.sandbox.network-setup-failed',
    generic: true,
  },
  {
    id: 'linux.sandbox.crio-network-setup-failed',
    platform: 'linux',
    pattern: String.raw`failed to create pod network sandbox`,
    literal: 'failed to create pod network sandbox',
    example:
      'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create pod network sandbox k8s_<pod>_<ns>_<uid>_<attempt>(<id>): error adding pod <ns>_<pod> to CNI network "<net>": plugin type="<t>" failed (add): <err>',
    title: 'CRI-O could not set up the network of a pod sandbox',
    explanation:
      'This is the error behind FailedCreatePodSandBox on CRI-O; the text after it is what the CNI plugin reported.',
    fix: "Read the plugin's error at the end of the line; other findings usually name the cause.",
    kb: [
      'docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from',
      'docs/knowledge/cri-o.md#the-crionetwork-table',
    ],
    topic: 'log.sandbox.network-setup-failed',
    generic: true,
  },
  {
    id: 'linux.sandbox.dockershim-network-setup-failed',
    platform: 'linux',
    pattern: String.raw`networkPlugin cni failed to set up pod`,
    literal: 'networkPlugin cni failed to set up pod',
    example: 'networkPlugin cni failed to set up pod "<pod>_<ns>" network: <err>',
    title: 'cri-dockerd / dockershim could not set up the network of a pod',
    explanation:
      'This is the error behind FailedCreatePodSandBox with Docker Engine; the text after it is what the CNI plugin reported.',
    fix: "Read the plugin's error at the end of the line; other findings usually name the cause.",
    kb: ['docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from'],
    topic: 'log.sandbox.network-setup-failed',
    generic: true,
  },

  // --- Sandbox image ----------------------------------------------------------------------
  {
    id: 'linux.containerd.sandbox-image-pull',
    platform: 'linux',
    pattern: String.raw`failed to get sandbox image \\*"[^"\\]*\\*": failed to pull`,
    literal: 'failed to get sandbox image',
    example:
      'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox image "<img>": failed to pull image "<img>": failed to pull and unpack image ...: failed to resolve reference ...',
    title: 'containerd cannot pull its pause (sandbox) image',
    explanation:
      "Every pod starts with a pause container, and containerd uses the image from its own config (sandbox_image / pinned_images.sandbox), not the kubelet's flag. If that registry is unreachable no pod can start.",
    fix: 'Pre-pull the image into the k8s.io namespace, or set sandbox_image (1.x) / pinned_images.sandbox (2.x) to a reachable mirror and restart containerd.',
    kb: ['docs/knowledge/log-signatures-linux.md#linux-38'],
    topic: 'log.sandbox-image.pull-failed',
  },
  {
    id: 'linux.cri-dockerd.sandbox-image-pull',
    platform: 'linux',
    pattern: String.raw`failed pulling image \\*"[^"\\]*\\*": Error response from daemon`,
    literal: 'failed pulling image',
    example:
      'Failed to create pod sandbox: rpc error: code = Unknown desc = failed pulling image "registry.k8s.io/pause:3.6": Error response from daemon: ...',
    title: 'cri-dockerd cannot pull its pause image',
    explanation:
      'cri-dockerd uses its own --pod-infra-container-image, not the pause version kubeadm expects; when Docker cannot pull it, no pod can start.',
    fix: 'Set --pod-infra-container-image in the cri-docker.service drop-in to a reachable image, or pre-pull and tag it.',
    kb: ['docs/knowledge/log-signatures-linux.md#linux-39'],
    topic: 'log.sandbox-image.pull-failed',
  },
  {
    id: 'linux.kubeadm.sandbox-image-mismatch',
    platform: 'linux',
    pattern: String.raw`detected that the sandbox image \\*"[^"\\]*\\*" of the container runtime is inconsistent`,
    literal: 'of the container runtime is inconsistent',
    example:
      'detected that the sandbox image "" of the container runtime is inconsistent with that used by kubeadm.It is recommended to use "registry.k8s.io/pause:3.10" as the CRI sandbox image.',
    title: 'kubeadm and the runtime disagree on the pause image',
    explanation:
      "kubeadm could not confirm the runtime uses the pause image it expects (containerd 2.x no longer reports it at all). Mostly harmless unless the runtime's image is unreachable.",
    fix: 'Optionally set pinned_images.sandbox (containerd 2.x) or sandbox_image (1.x) to the image kubeadm names.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-34',
      'docs/knowledge/containerd.md#where-the-cri-and-cni-keys-live',
    ],
    topic: 'log.kubeadm.sandbox-image',
    severity: 'info',
  },

  // --- containerd config and CRI plugin ---------------------------------------------------
  {
    id: 'linux.cri.v1-unimplemented',
    platform: 'linux',
    pattern: String.raw`unknown service runtime\.v1\.(RuntimeService|ImageService)`,
    literal: 'unknown service runtime.v1.',
    example: 'rpc error: code = Unimplemented desc = unknown service runtime.v1.RuntimeService',
    title: 'The socket answers, but not as a Kubernetes container runtime (CRI disabled)',
    explanation:
      'The kubelet, kubeadm or crictl reached the socket, but no CRI service is behind it. Most often containerd runs with the CRI plugin disabled (Docker\'s containerd.io package ships disabled_plugins = ["cri"]) or the plugin failed to load.',
    fix: 'Remove "cri" from disabled_plugins in /etc/containerd/config.toml (or regenerate it with containerd config default) and restart containerd.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-15',
      'docs/knowledge/containerd.md#disabled_plugins',
    ],
    attachesTo: 'containerd.cri.disabled',
  },
  {
    id: 'linux.cri.v1alpha2-unimplemented',
    platform: 'linux',
    pattern: String.raw`unknown service runtime\.v1alpha2\.(RuntimeService|ImageService)`,
    literal: 'unknown service runtime.v1alpha2.',
    example: 'unknown service runtime.v1alpha2.RuntimeService',
    title: 'An older client found no CRI service on the socket (CRI disabled)',
    explanation:
      'Same cause as "unknown service runtime.v1": the runtime socket does not serve CRI, seen from an older kubelet or crictl.',
    fix: 'Enable containerd\'s CRI plugin (remove "cri" from disabled_plugins) and restart containerd.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-16',
      'docs/knowledge/containerd.md#disabled_plugins',
    ],
    attachesTo: 'containerd.cri.disabled',
  },
  {
    id: 'linux.containerd.cri-plugin-load-failed',
    platform: 'linux',
    pattern: String.raw`failed to load plugin.*io\.containerd\.(grpc\.v1\.cri|cri\.v1\.)`,
    literal: 'failed to load plugin',
    example:
      'level=warning msg="failed to load plugin io.containerd.grpc.v1.cri" error="invalid plugin config: `systemd_cgroup` only works for runtime io.containerd.runtime.v1.linux"',
    title: 'containerd started without its CRI plugin',
    explanation:
      'The CRI plugin refused its configuration and containerd carried on without it (only required_plugins are fatal). The socket exists but the kubelet gets "unknown service runtime.v1.RuntimeService".',
    fix: 'Fix the setting named in the error in config.toml and restart containerd.',
    kb: [
      'docs/knowledge/containerd.md#unknown-keys-and-keys-of-the-wrong-version',
      'docs/knowledge/log-signatures-linux.md#linux-17',
    ],
    attachesTo: 'containerd.cri.disabled',
  },
  {
    id: 'linux.containerd.systemd-cgroup-legacy',
    platform: 'linux',
    pattern: String.raw`systemd_cgroup. only works for runtime io\.containerd\.runtime\.v1\.linux`,
    literal: 'only works for runtime',
    example:
      'level=warning msg="failed to load plugin io.containerd.grpc.v1.cri" error="invalid plugin config: `systemd_cgroup` only works for runtime io.containerd.runtime.v1.linux"',
    title: 'config.toml uses the legacy systemd_cgroup key',
    explanation:
      'The old systemd_cgroup = true setting in the CRI section is rejected by containerd 1.3 and later, which disables the whole CRI plugin.',
    fix: 'Delete systemd_cgroup from the CRI section and set SystemdCgroup = true under the runc runtime options instead.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-17',
      'docs/knowledge/containerd.md#unknown-keys-and-keys-of-the-wrong-version',
    ],
    attachesTo: 'containerd.config.invalid',
  },
  {
    id: 'linux.containerd.invalid-plugin-uri',
    platform: 'linux',
    pattern: String.raw`invalid (disabled )?plugin (key )?URI \\*"[^"\\]*\\*" expect io\.containerd\.x\.vx`,
    literal: 'expect io.containerd.x.vx',
    example:
      'failed to load TOML from /etc/containerd/config.toml: invalid plugin key URI "cri" expect io.containerd.x.vx',
    title: 'config.toml mixes version 2 with version 1 plugin names',
    explanation:
      'The file says version = 2 but uses short names like [plugins.cri] or disabled_plugins = ["cri"]; containerd refuses to start.',
    fix: 'Use the full plugin names (io.containerd.grpc.v1.cri) or remove the version line, then start containerd.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-18',
      'docs/knowledge/containerd.md#disabled_plugins',
    ],
    attachesTo: 'containerd.config.invalid',
  },
  {
    id: 'linux.containerd.toml-syntax',
    platform: 'linux',
    pattern: String.raw`failed to unmarshal TOML at row`,
    literal: 'failed to unmarshal TOML',
    example: 'failed to unmarshal TOML at row %d column %d: %w',
    title: "containerd's config.toml is not valid TOML",
    explanation:
      'A syntax error in config.toml (or an imported file) stops containerd from starting, so there is no runtime socket at all.',
    fix: 'Fix the file at the row and column in the message, or restore a known-good copy, then start containerd.',
    kb: ['docs/knowledge/containerd.md#unknown-keys-and-keys-of-the-wrong-version'],
    attachesTo: 'containerd.config.invalid',
  },
  {
    id: 'linux.containerd.toml-unmarshal-failure',
    platform: 'linux',
    pattern: String.raw`Failure unmarshaling TOML`,
    literal: 'Failure unmarshaling TOML',
    example: 'Failure unmarshaling TOML',
    title: 'containerd could not decode config.toml',
    explanation:
      "containerd's TOML decoder rejected the file, so containerd does not start and the kubelet finds no runtime socket.",
    fix: 'Validate the file (and every file it imports) with a TOML parser, fix the reported position, then start containerd.',
    kb: ['docs/knowledge/containerd.md#unknown-keys-and-keys-of-the-wrong-version'],
    attachesTo: 'containerd.config.invalid',
  },
  {
    id: 'linux.containerd.config-version-too-new',
    platform: 'linux',
    pattern: String.raw`expected containerd config version equal to or less than`,
    literal: 'expected containerd config version',
    example: 'expected containerd config version equal to or less than `%d`, got `%d`',
    title: 'config.toml declares a schema version this containerd does not know',
    explanation:
      'The file was written for a newer containerd (for example version = 3 on 1.x, or 4 on 2.0 to 2.2); containerd refuses to start.',
    fix: "Regenerate the file with this binary's containerd config default, or upgrade containerd to match.",
    kb: ['docs/knowledge/containerd.md#config-versions'],
    attachesTo: 'containerd.config.invalid',
  },
  {
    id: 'linux.containerd.unknown-toml-key',
    platform: 'linux',
    pattern: String.raw`Ignoring unknown key in TOML`,
    literal: 'Ignoring unknown key in TOML',
    example:
      'level=warning msg="Ignoring unknown key in TOML for plugin" error="strict mode: fields in the document are missing in the target struct" key=containerd plugin=io.containerd.grpc.v1.cri',
    title: 'containerd is ignoring settings placed under the wrong section',
    explanation:
      'containerd 2.x found keys it does not know, typically version 2 CRI settings in a version = 3 file. They are silently not applied, so SystemdCgroup, CNI dirs or runtimes may not be what the file says.',
    fix: "Move the keys to the tables of the file's version (io.containerd.cri.v1.runtime / images for version 3), or set version = 2 so containerd migrates them.",
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-19',
      'docs/knowledge/containerd.md#unknown-keys-and-keys-of-the-wrong-version',
    ],
    attachesTo: 'containerd.config.wrong-schema',
  },
  {
    id: 'linux.containerd.cni-dir-removed',
    platform: 'linux',
    pattern: String.raw`cni conf dir is removed, stop watching`,
    literal: 'cni conf dir is removed',
    example: 'cni conf dir is removed, stop watching',
    title: 'containerd stopped watching the CNI conf dir because it was deleted',
    explanation:
      'The CNI conf dir was deleted (and maybe recreated); containerd no longer sees changes in it, so new or fixed configs are ignored.',
    fix: 'Restart containerd after the directory is back in place.',
    kb: ['docs/knowledge/cni-loading.md#how-containerds-cri-uses-the-loader'],
    topic: 'log.containerd.cni-dir-removed',
  },

  {
    id: 'linux.systemd.containerd-exited',
    platform: 'linux',
    pattern: String.raw`containerd\.service: (Main process exited|Failed with result)`,
    literal: 'containerd.service: ',
    example: 'containerd.service: Main process exited, code=killed, status=9/KILL',
    title: 'systemd recorded how containerd stopped',
    explanation:
      "systemd's own line in containerd's journal: how the containerd process ended (exit code, signal, OOM kill). Until the service runs again there is no runtime socket and no pod can start.",
    fix: 'Read the lines before it in journalctl -u containerd for the cause, fix it, then systemctl start containerd.',
    kb: ['docs/knowledge/containerd.md#sockets-and-cri-versions'],
    attachesTo: 'containerd.service.stopped',
  },

  // --- CRI endpoints ----------------------------------------------------------------------
  {
    id: 'linux.cri.socket-missing',
    platform: 'linux',
    pattern: String.raw`dial unix [^ ]*(containerd|crio|cri-dockerd|dockershim)\.sock: connect: no such file or directory`,
    literal: 'connect: no such file or directory',
    example:
      'transport: Error while dialing dial unix /var/run/containerd/containerd.sock: connect: no such file or directory',
    title: 'The configured container runtime socket does not exist',
    explanation:
      'The kubelet (or kubeadm, crictl) is pointed at a runtime socket that is not there: the runtime is not running, or the endpoint still names a runtime that was replaced (for example dockershim after a migration).',
    fix: 'Start the runtime, or correct --container-runtime-endpoint / containerRuntimeEndpoint to the socket of the runtime that is installed.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-20',
      'docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from',
    ],
    attachesTo: 'cri.endpoint.missing',
  },
  {
    id: 'linux.cri.socket-refused',
    platform: 'linux',
    pattern: String.raw`dial unix [^ ]*(containerd|crio|cri-dockerd|dockershim)\.sock: connect: connection refused`,
    literal: 'connect: connection refused',
    example: 'dial unix /var/run/cri-dockerd.sock: connect: connection refused',
    title: 'The container runtime socket exists but nothing answers',
    explanation:
      'The socket file is left over from a runtime that stopped or failed to start (for example a broken cri-docker unit).',
    fix: 'Restart the runtime service (systemctl restart containerd / crio / cri-docker.socket) and check its status for the start-up error.',
    kb: ['docs/knowledge/log-signatures-linux.md#linux-21'],
    attachesTo: 'cri.endpoint.unreachable',
  },
  {
    id: 'linux.kubelet.endpoint-not-set',
    platform: 'linux',
    pattern: String.raw`container runtime endpoint address was not specified or empty`,
    literal: 'container runtime endpoint address was not specified',
    example:
      'failed to validate kubelet flags: the container runtime endpoint address was not specified or empty, use --container-runtime-endpoint to set',
    title: 'The kubelet has no container runtime endpoint',
    explanation:
      'Kubelet 1.24 to 1.26 has no default endpoint and ignores the config-file field, so without the flag it exits.',
    fix: 'Pass --container-runtime-endpoint (for example unix:///run/containerd/containerd.sock) in kubeadm-flags.env or the kubelet drop-in.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-24',
      'docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from',
    ],
    attachesTo: 'cri.endpoint.missing',
  },
  {
    id: 'linux.cri-dockerd.v1-unimplemented',
    platform: 'linux',
    pattern: String.raw`CRI v1 runtime API is not implemented for endpoint \\*"[^"]*cri-dockerd\.sock`,
    literal: 'CRI v1 runtime API is not implemented',
    example:
      'validate service connection: CRI v1 runtime API is not implemented for endpoint "unix:///run/cri-dockerd.sock": rpc error: code = Unimplemented desc = unknown service runtime.v1.RuntimeService',
    title: 'cri-dockerd is too old for this kubelet',
    explanation:
      'cri-dockerd before 0.3.0 only speaks the old v1alpha2 CRI, which kubelet 1.26 and later no longer use.',
    fix: 'Upgrade cri-dockerd to 0.3.0 or later.',
    kb: ['docs/knowledge/log-signatures-linux.md#linux-35'],
    topic: 'log.cri-dockerd.too-old',
  },
  {
    id: 'linux.kubeadm.multiple-cri-endpoints',
    platform: 'linux',
    pattern: String.raw`[Ff]ound multiple CRI (endpoints on the host|sockets, please use --cri-socket)`,
    literal: 'ound multiple CRI ',
    example:
      "Found multiple CRI endpoints on the host. Please define which one do you wish to use by setting the 'criSocket' field in the kubeadm configuration file: unix:///var/run/containerd/containerd.sock, unix:///var/run/cri-dockerd.sock",
    title: 'kubeadm found more than one container runtime socket',
    explanation:
      "Several runtime sockets answer (typically Docker's containerd next to cri-dockerd), and kubeadm refuses to guess which one the kubelet should use.",
    fix: 'Pass --cri-socket or set nodeRegistration.criSocket, or stop and remove the runtime you do not use.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-25',
      'docs/knowledge/log-signatures-linux.md#linux-26',
      'docs/knowledge/kubelet-and-cri.md#kubeadm-and-several-cri-sockets',
    ],
    attachesTo: 'cri.socket.multiple',
  },
  {
    id: 'linux.kubelet.endpoint-no-scheme',
    platform: 'linux',
    pattern: String.raw`Using this endpoint is deprecated, please consider using full URL format`,
    literal: 'please consider using full URL format',
    example:
      '"Using this endpoint is deprecated, please consider using full URL format" endpoint="/var/run/cri-dockerd.sock" URL="unix:///var/run/cri-dockerd.sock"',
    title: 'The runtime endpoint is written without unix://',
    explanation:
      'The kubelet still accepts a bare socket path but warns that this form is deprecated.',
    fix: 'Write the endpoint as a URL, e.g. unix:///var/run/cri-dockerd.sock.',
    kb: ['docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from'],
    topic: 'log.kubelet.endpoint-scheme',
    severity: 'info',
  },
  {
    id: 'linux.crictl.default-endpoints',
    platform: 'linux',
    pattern: String.raw`runtime connect using default endpoints`,
    literal: 'runtime connect using default endpoints',
    example:
      'runtime connect using default endpoints: %v. As the default settings are now deprecated, you should set the endpoint instead.',
    title: 'crictl has no endpoint configured and is guessing',
    explanation:
      'Without /etc/crictl.yaml crictl tries a list of sockets in turn; on a node with several runtimes it may show you a runtime the kubelet does not use.',
    fix: "Write /etc/crictl.yaml with runtime-endpoint set to the kubelet's endpoint.",
    kb: ['docs/knowledge/kubelet-and-cri.md#crictl'],
    topic: 'log.crictl.default-endpoints',
    severity: 'info',
  },

  // --- kubelet flags and cgroup driver ----------------------------------------------------
  {
    id: 'linux.kubelet.dockershim-flag',
    platform: 'linux',
    pattern: String.raw`failed to parse kubelet flag: unknown flag: --(network-plugin|network-plugin-mtu|cni-conf-dir|cni-bin-dir|cni-cache-dir|docker-endpoint|experimental-dockershim-root-directory|image-pull-progress-deadline)`,
    literal: 'failed to parse kubelet flag',
    example: 'Error: failed to parse kubelet flag: unknown flag: --network-plugin',
    title: 'The kubelet is started with dockershim-era flags removed in 1.24',
    explanation:
      'Flags such as --network-plugin and --cni-conf-dir no longer exist, so the kubelet exits at start and systemd restarts it in a loop.',
    fix: "Remove the flags from kubeadm-flags.env, /etc/default/kubelet (or /etc/sysconfig/kubelet) and kubelet drop-ins; CNI dirs now belong in the runtime's config.",
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-22',
      'docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from',
    ],
    attachesTo: 'kubelet.flags.removed',
  },
  {
    id: 'linux.kubelet.container-runtime-flag',
    platform: 'linux',
    pattern: String.raw`failed to parse kubelet flag: unknown flag: --container-runtime([^-]|$)`,
    literal: 'failed to parse kubelet flag',
    example:
      '"command failed" err="failed to parse kubelet flag: unknown flag: --container-runtime"',
    title: 'The kubelet is started with --container-runtime, removed in 1.27',
    explanation:
      'Old kubeadm-flags.env files carry --container-runtime=remote; kubelet 1.27 and later do not know the flag and exit.',
    fix: 'Delete --container-runtime=remote from kubeadm-flags.env (keep --container-runtime-endpoint) and restart the kubelet.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-23',
      'docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from',
    ],
    attachesTo: 'kubelet.flags.removed',
  },
  {
    id: 'linux.runc.systemd-cgroups-path',
    platform: 'linux',
    pattern: String.raw`expected cgroupsPath to be of format \\*"slice:prefix:name\\*" for systemd cgroups`,
    literal: 'expected cgroupsPath to be of format',
    example:
      'OCI runtime create failed: expected cgroupsPath to be of format "slice:prefix:name" for systemd cgroups, got "/kubepods/burstable/pod.../..." instead: unknown',
    title: 'The kubelet uses cgroupfs while runc is set to systemd',
    explanation:
      "The kubelet builds cgroupfs-style paths but containerd's runc has SystemdCgroup = true, so runc refuses to create the pod sandbox.",
    fix: 'Use the same driver on both sides, preferably systemd: cgroupDriver: systemd in the kubelet config, SystemdCgroup = true in containerd.',
    kb: [
      'docs/knowledge/log-signatures-linux.md#linux-27',
      'docs/knowledge/kubelet-and-cri.md#where-the-kubelets-runtime-endpoint-comes-from',
    ],
    attachesTo: 'kubelet.cgroup-driver.mismatch',
  },
  {
    id: 'linux.kubelet.cgroup-driver-docker',
    platform: 'linux',
    pattern: String.raw`kubelet cgroup driver: \\*"[a-z]+\\*" is different from docker cgroup driver`,
    literal: 'is different from docker cgroup driver',
    example:
      'misconfiguration: kubelet cgroup driver: "cgroupfs" is different from docker cgroup driver: "systemd"',
    title: 'The kubelet and Docker use different cgroup drivers',
    explanation: "The kubelet refuses to start when its cgroup driver differs from Docker's.",
    fix: "Set the kubelet's cgroupDriver (or --cgroup-driver) to Docker's driver, or change Docker's exec-opts to match.",
    kb: ['docs/knowledge/log-signatures-linux.md#linux-28'],
    attachesTo: 'kubelet.cgroup-driver.mismatch',
  },

  // --- cri-dockerd / CRI-O start-up errors ------------------------------------------------
  {
    id: 'linux.cri-dockerd.network-plugin-name',
    platform: 'linux',
    pattern: String.raw`didn't find compatible CNI plugin with given settings`,
    literal: "didn't find compatible CNI plugin",
    example:
      'level=fatal msg="didn\'t find compatible CNI plugin with given settings &{HairpinMode:none NonMasqueradeCIDR:10.0.0.0/8 PluginName:calico ...',
    title: 'cri-dockerd was given a CNI name instead of --network-plugin=cni',
    explanation:
      '--network-plugin must be the word "cni"; a CNI name such as calico makes cri-dockerd exit. Left empty on old releases, pods silently get Docker bridge addresses instead.',
    fix: 'Set --network-plugin=cni in the cri-docker.service drop-in (with --cni-conf-dir and --cni-bin-dir when not default) and restart it.',
    kb: ['docs/knowledge/log-signatures-linux.md#linux-44'],
    topic: 'log.cri-dockerd.network-plugin',
  },
  {
    id: 'linux.crio.conmon-cgroup',
    platform: 'linux',
    pattern: String.raw`conmon cgroup should be 'pod' or`,
    literal: 'conmon cgroup should be',
    example: "Validating runtime config: conmon cgroup should be 'pod' or a systemd slice",
    title: "CRI-O's conmon_cgroup does not fit its cgroup_manager",
    explanation:
      'With cgroup_manager = "cgroupfs", conmon_cgroup must be "pod"; otherwise CRI-O refuses its config and does not start.',
    fix: 'Set conmon_cgroup = "pod" in a crio.conf.d drop-in when using cgroupfs (or switch both to systemd) and restart CRI-O.',
    kb: ['docs/knowledge/cri-o.md#the-crionetwork-table'],
    topic: 'log.crio.conmon-cgroup',
  },
  {
    id: 'linux.crio.plugin-dir-deprecated',
    platform: 'linux',
    pattern: String.raw`The config field plugin_dir is being deprecated`,
    literal: 'plugin_dir is being deprecated',
    example: 'The config field plugin_dir is being deprecated. Please use plugin_dirs instead',
    title: 'CRI-O config still uses plugin_dir',
    explanation:
      'The old single plugin_dir key is still honoured (added to plugin_dirs) but will go away.',
    fix: 'Replace plugin_dir with plugin_dirs = [ ... ] in the CRI-O config.',
    kb: ['docs/knowledge/cri-o.md#the-crionetwork-table'],
    topic: 'log.crio.plugin-dir-deprecated',
    severity: 'info',
  },
];
