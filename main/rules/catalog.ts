/** Every rule, in the order of rules.md. Windows rules are added from ./windows. */
import type { Rule } from './types';
import { cniConfNone } from './cni/conf-none';
import { cniConfInvalid } from './cni/conf-invalid';
import { cniConfMultiple } from './cni/conf-multiple';
import { cniConfShadowedByDefault } from './cni/shadowed-by-default';
import { cniPluginMissing } from './cni/plugin-missing';
import { cniDirMismatch } from './cni/dir-mismatch';
import { cniVersionUnsupported } from './cni/version-unsupported';
import { cniNetworkAddRefused } from './cni/add-refused';
import { cniKernelPrerequisites } from './cni/kernel-prerequisites';
import { cniIpamLeaked } from './cni/ipam-leaked';
import { cniPluginUnusable } from './cni/plugin-unusable';
import { containerdCriDisabled } from './containerd/cri-disabled';
import { containerdConfigInvalid } from './containerd/config-invalid';
import { containerdServiceStopped } from './containerd/service-stopped';
import { containerdConfigWrongSchema } from './containerd/wrong-schema';
import { crioNetworkDefaultMissing } from './crio/default-missing';
import { criSocketMultiple } from './cri/socket-multiple';
import { criEndpointMissing } from './cri/endpoint-missing';
import { criEndpointUnreachable } from './cri/endpoint-unreachable';
import { criCrictlMismatch } from './cri/crictl-mismatch';
import { criNetworkNotReady } from './cri/network-not-ready';
import { criCniNotReloaded } from './cri/not-reloaded';
import { kubeletFlagsRemoved } from './kubelet/flags-removed';
import { kubeletCgroupDriverMismatch } from './kubelet/cgroup-driver';
import { WINDOWS_RULES } from './windows/index';
import { logTopicRules } from './logs/topic-rules';

export const CORE_RULES: readonly Rule[] = [
  cniConfNone,
  cniConfInvalid,
  cniConfMultiple,
  cniConfShadowedByDefault,
  cniPluginMissing,
  cniDirMismatch,
  cniVersionUnsupported,
  cniNetworkAddRefused,
  cniKernelPrerequisites,
  cniIpamLeaked,
  cniPluginUnusable,
  containerdCriDisabled,
  containerdConfigInvalid,
  containerdServiceStopped,
  containerdConfigWrongSchema,
  crioNetworkDefaultMissing,
  criSocketMultiple,
  criEndpointMissing,
  criEndpointUnreachable,
  criCrictlMismatch,
  criNetworkNotReady,
  criCniNotReloaded,
  kubeletFlagsRemoved,
  kubeletCgroupDriverMismatch,
  ...WINDOWS_RULES,
];

export const ALL_RULES: readonly Rule[] = [...CORE_RULES, ...logTopicRules()];
