// The node containers' scenarios: a kind-like node whose containerd loads its own default bridge
// before the cluster's CNI, one whose containerd has CRI turned off (Docker's containerd.io
// config), and one whose CNI config names a plugin that is not installed.
import type { NodeContainerOptions, NodeNames } from './node-container';

const q = JSON.stringify;

/** kind's containerd settings that matter here, with the lab's pause image. */
export function nodeConfigToml(): string {
  return `version = 2

[plugins]
  [plugins."io.containerd.grpc.v1.cri"]
    sandbox_image = "localhost/cni-doctor/pause:lab"
    # the lab machine lacks CAP_SYS_RESOURCE (docs/knowledge/lab.md#a-real-pod-sandbox)
    restrict_oom_score_adj = true
    [plugins."io.containerd.grpc.v1.cri".cni]
      bin_dir = "/opt/cni/bin"
      conf_dir = "/etc/cni/net.d"
    [plugins."io.containerd.grpc.v1.cri".containerd]
      snapshotter = "overlayfs"
`;
}

/** What Docker's containerd.io ships: v1 config, CRI disabled by its short name. */
export function criDisabledNodeToml(): string {
  return `disabled_plugins = ["cri"]

[plugins]
  [plugins.cri]
    sandbox_image = "localhost/cni-doctor/pause:lab"
    restrict_oom_score_adj = true
    [plugins.cri.cni]
      bin_dir = "/opt/cni/bin"
      conf_dir = "/etc/cni/net.d"
`;
}

/** kindnet's conflist shape (ptp in kind; a bridge here so pods need no routes). */
export function clusterConf(n: NodeNames): string {
  return `${q(
    {
      cniVersion: '0.4.0',
      name: 'kindnet',
      plugins: [
        {
          type: 'bridge',
          bridge: n.bridge(1),
          isGateway: true,
          ipMasq: false,
          ipam: { type: 'host-local', ranges: [[{ subnet: n.subnet(1) }]] },
        },
        { type: 'portmap', capabilities: { portMappings: true } },
      ],
    },
    null,
    2,
  )}\n`;
}

/** containerd's own 10-containerd-net.conflist (its install docs), on a lab-owned bridge. */
export function defaultConf(n: NodeNames): string {
  return `${q(
    {
      cniVersion: '1.0.0',
      name: 'containerd-net',
      plugins: [
        {
          type: 'bridge',
          bridge: n.bridge(2),
          isGateway: true,
          ipMasq: false,
          promiscMode: true,
          ipam: {
            type: 'host-local',
            ranges: [[{ subnet: n.subnet(2) }]],
            routes: [{ dst: '0.0.0.0/0' }],
          },
        },
        { type: 'portmap', capabilities: { portMappings: true } },
      ],
    },
    null,
    2,
  )}\n`;
}

export type Scenario = Pick<NodeContainerOptions, 'configToml' | 'confFiles'> & {
  /** The finding the scan must report. */
  rule: string;
};

export const SCENARIOS: Record<'shadowing' | 'criDisabled' | 'pluginMissing', Scenario> = {
  shadowing: {
    rule: 'cni.conf.shadowed-by-default',
    configToml: nodeConfigToml,
    confFiles: (n) => ({
      '10-containerd-net.conflist': defaultConf(n),
      '10-kindnet.conflist': clusterConf(n),
    }),
  },
  criDisabled: {
    rule: 'containerd.cri.disabled',
    configToml: criDisabledNodeToml,
    confFiles: (n) => ({ '10-kindnet.conflist': clusterConf(n) }),
  },
  pluginMissing: {
    rule: 'cni.plugin.missing',
    configToml: nodeConfigToml,
    confFiles: (n) => ({
      '10-calico.conflist': `${q({
        cniVersion: '0.3.1',
        name: 'k8s-pod-network',
        plugins: [
          { type: 'calico', ipam: { type: 'calico-ipam' } },
          { type: 'portmap', capabilities: { portMappings: true } },
        ],
      })}\n`,
      '20-kindnet.conflist': clusterConf(n),
    }),
  },
};
