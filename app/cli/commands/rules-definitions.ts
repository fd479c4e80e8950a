/**
 * The part of docs/rules.md written by hand: what a status means, what a finding carries, and the
 * definitions that decide edge cases. The catalog tables after it are generated (rules.ts).
 */
export const RULES_PREAMBLE = `Every check has a stable dotted id. People quote ids in tickets, scripts (\`--fail-on\`) and
links, so an id never changes meaning once released; a new check gets a new id.

## Statuses

Each check reports one status per run: \`fail\` (it produced one or more findings), \`pass\`,
\`not-applicable\` (a Windows check on Linux, a CRI-O check where CRI-O is absent, a runtime the
kubelet does not use) or \`unknown\` (its inputs could not be read: permission denied, not
recorded in a bundle). A check never reports \`pass\` when it could not look.

## Findings

A finding carries its \`rule\`, a \`severity\` (\`error\`: breaks sandbox creation now; \`warning\`: will,
or misleads whoever debugs the node; \`info\`), a one-line \`title\`, a \`summary\` of cause and effect,
\`evidence\` (file lines, the conf dir in load order, CRI answers, HNS objects, log lines with file
and line number), the \`runtime\` it is about when that matters, and \`repairs\` or \`guidance\`. The
report's fields are described in [cli.md](cli.md#the-report-scan---json).

## Definitions

Rules reason about what the runtime actually reads: the conf dir and bin dirs come from the
runtime's configuration (containerd \`config.toml\` with its \`imports\`, CRI-O \`crio.conf\` plus
\`crio.conf.d/*\` in order, k3s/RKE2 locations, Windows defaults), falling back to the runtime's
built-in defaults — never from an assumption about \`/etc/cni/net.d\`.

- **Loadable**: a file in the conf dir whose extension the runtime loads (\`.conf\`, \`.conflist\`,
  \`.json\`; podman's CNI backend: \`.conflist\` only). **Valid**: loadable and parses as a CNI
  config or list. **In use**: the valid config(s) the runtime selects — containerd: the first
  \`max_conf_num\` valid files in byte order, stopping at the first invalid file that sorts before
  them; CRI-O: \`cni_default_network\` by network name, else the first file that parses and whose
  plugins are in \`plugin_dirs\` ([knowledge](knowledge/cni-loading.md#each-runtime-loads-differently)).
- **Default** config: one a runtime or tool installs by itself (\`10-containerd-net.conflist\`,
  \`100-crio-bridge.conf*\`, \`11-crio-ipv4-bridge.conflist\`, \`200-loopback.conf\`,
  \`87-podman*.conflist\`, \`nerdctl-*.conflist\`, Windows \`0-containerd-nat.json\`). **Cluster**
  config: any other.
- **The runtime**: the one the kubelet's endpoint names; when no kubelet endpoint is known, every
  runtime present. Rules about a runtime the kubelet does not use are \`not-applicable\` (Docker's
  own containerd with CRI disabled on a cri-dockerd node is fine). On k3s/RKE2 the embedded
  containerd is the kubelet's runtime.
- **CRI endpoint**: a socket or pipe that answers CRI. A containerd socket whose CRI is disabled
  is not one for \`cri.socket.multiple\`; it is \`containerd.cri.disabled\`.
  \`cri.endpoint.unreachable\` covers any endpoint that exists but does not answer (refused,
  timeout, gRPC code 14).
- **Paths compare normalised**: \`/var/run\` ≡ \`/run\`; an endpoint without a scheme is a unix path;
  trailing slashes are ignored; Windows paths compare case-insensitively, with \`/\` and backslash the same.
- **Plugin types** checked by \`cni.plugin.missing\`: every \`type\` in a config's plugin list, its
  \`ipam.type\`, and flannel's \`delegate.type\` (default \`bridge\`); not a runtime's internal loopback.
- Kubelet flags are judged against the release that removed each flag; the cgroup driver check is
  \`not-applicable\` on Windows and when the kubelet takes its driver from the runtime.
- **The kubelet's command line**: the running process's; when it is not running (it crash-loops
  on a removed flag), what starts it — Linux flag files and unit drop-ins; Windows the \`kubelet\`
  service's nssm \`AppParameters\` or \`ImagePath\` (quoted as a registry value), else the start
  script either names or \`C:\\k\\StartKubelet.ps1\` (quoted by line). With none of them found the
  flags check is \`unknown\`, never \`pass\`; the kubelet's \`unknown flag\` log lines (nssm's
  \`AppStderr\`, \`kubelet.err.log\`) are the finding's evidence.

## Logs

Log lines are evidence. A line matching a known signature
([Linux](knowledge/log-signatures-linux.md), [Windows](knowledge/log-signatures-windows.md)) is
attached to the rule it explains. A signature no rule covers becomes its own check
\`log.<topic>\` (severity \`warning\` unless stated), so it has a status on every run: \`fail\` with
the matching lines, \`pass\` when logs were scanned and hold none, \`unknown\` when no log could be
read. A line is evidence in one finding only: a line that a specific finding explains is that
finding's evidence, and the generic topics (\`log.sandbox.network-setup-failed\`,
\`log.cni.reload-failed\`) keep only the lines no other finding explains; when every line is
explained elsewhere the generic check passes and its \`reason\` names the findings holding them.

## Repairs

A repair is offered by id (\`<rule>:<kind>[:<key>]\`) and carried out only by cni-doctor's own code:
the UI sends an id, never a command. Each has a preview (steps, unified diffs, services
restarted, what running pods notice, whether root or Administrator is needed), is applied with a
backup, verified by scanning again, rolled back when the finding remains or something else
broke, and can be undone.`;
