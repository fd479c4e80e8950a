// containerd config.toml files for the lab. Strings go through JSON.stringify: a JSON string is
// a valid TOML basic string for the plain paths used here.
import type { LabPaths } from './paths';

const q = JSON.stringify;
const CRI = '[plugins."io.containerd.grpc.v1.cri"';

export interface LabConfigOverrides {
  /** `[plugins."io.containerd.grpc.v1.cri".cni] bin_dir`; default paths.binDir. */
  cniBinDir?: string;
  cniConfDir?: string;
  maxConfNum?: number;
  /** Extra lines appended at the end (must be valid TOML in context). */
  extra?: string;
}

/** Version 2 config: private root/state/socket/CNI dirs, the lab pause image, runc state in the lab. */
export function labConfigToml(p: LabPaths, o: LabConfigOverrides = {}): string {
  return `version = 2
root = ${q(p.root)}
state = ${q(p.state)}

[grpc]
  address = ${q(p.socket)}

[ttrpc]
  address = ""

[debug]
  level = "info"

[plugins]
  ${CRI}]
    sandbox_image = ${q(p.sandboxImage)}
    # netns as bind mounts under <state>, not /var/run/netns, so teardown finds them under the lab dir
    netns_mounts_under_state_dir = true
    # root here lacks CAP_SYS_RESOURCE and cannot set the sandbox's oom_score_adj of -998, which
    # makes runc fail with "can't get final child's PID from pipe: EOF" (docs/knowledge/lab.md#a-real-pod-sandbox)
    restrict_oom_score_adj = true
    disable_tcp_service = true
    stream_server_address = "127.0.0.1"
    stream_server_port = "0"
    ${CRI}.cni]
      bin_dir = ${q(o.cniBinDir ?? p.binDir)}
      conf_dir = ${q(o.cniConfDir ?? p.confDir)}
      max_conf_num = ${o.maxConfNum ?? 1}
    ${CRI}.containerd]
      snapshotter = "overlayfs"
      default_runtime_name = "runc"
      ${CRI}.containerd.runtimes.runc]
        runtime_type = "io.containerd.runc.v2"
        ${CRI}.containerd.runtimes.runc.options]
          # keep runc state out of the host-wide /run/containerd/runc
          Root = ${q(p.runcRoot)}
  [plugins."io.containerd.internal.v1.opt"]
    path = ${q(p.optDir)}
${o.extra ?? ''}`;
}

/**
 * What Docker's containerd.io package ships: a version-1 file (no `version` line) with the CRI
 * plugin disabled by its short name. containerd 1.6 accepts "cri" only in v1 files; a v2 file
 * with it refuses to start (docs/knowledge/lab.md#cri-disabled-in-the-config). The file still carries the lab's CRI settings
 * (v1 short plugin names), so removing "cri" from disabled_plugins — the repair — gives a CRI
 * that uses the lab's dirs, pause image and runc state, as on a real node.
 */
export function criDisabledV1ConfigToml(p: LabPaths): string {
  return `disabled_plugins = ["cri"]
root = ${q(p.root)}
state = ${q(p.state)}

[grpc]
  address = ${q(p.socket)}

[ttrpc]
  address = ""

[debug]
  level = "info"

[plugins]
  [plugins.cri]
    sandbox_image = ${q(p.sandboxImage)}
    netns_mounts_under_state_dir = true
    restrict_oom_score_adj = true
    disable_tcp_service = true
    stream_server_address = "127.0.0.1"
    stream_server_port = "0"
    [plugins.cri.cni]
      bin_dir = ${q(p.binDir)}
      conf_dir = ${q(p.confDir)}
    [plugins.cri.containerd]
      snapshotter = "overlayfs"
      default_runtime_name = "runc"
      [plugins.cri.containerd.runtimes.runc]
        runtime_type = "io.containerd.runc.v2"
        [plugins.cri.containerd.runtimes.runc.options]
          Root = ${q(p.runcRoot)}
  [plugins.opt]
    path = ${q(p.optDir)}
`;
}
