/**
 * One plan builder per offer kind (main/rules/** offers). Windows kinds (hns-create-nat-network,
 * hns-remove-endpoints, antrea-restart) plug in here with `powershell` steps.
 */
import type { PlanBuilders } from './types';
import { buildRenameFile } from './rename-file';
import { buildDisableFiles } from './disable-files';
import { buildContainerdEnableCri } from './containerd-enable-cri';
import { buildContainerdAddBinDir } from './containerd-add-bin-dir';
import { buildContainerdSetConfDir } from './containerd-set-conf-dir';
import { buildContainerdSetSystemdCgroup } from './containerd-set-systemd-cgroup';
import { buildCrioAddPluginDir } from './crio-add-plugin-dir';
import { buildCrioSetNetworkDir } from './crio-set-network-dir';
import { buildCrioSetDefaultNetwork } from './crio-set-default-network';
import { buildCrioSetCgroupManager } from './crio-set-cgroup-manager';
import { buildWriteCrictlConfig } from './write-crictl-config';
import { buildKubeletSetEndpoint } from './kubelet-set-endpoint';
import { buildKubeletRemoveFlags } from './kubelet-remove-flags';
import { buildRestartService } from './restart-service';
import { buildHnsCreateNatNetwork } from './hns-create-nat-network';
import { buildHnsRemoveEndpoints } from './hns-remove-endpoints';
import { buildAntreaRestart } from './antrea-restart';

export const PLAN_BUILDERS: PlanBuilders = {
  'rename-file': buildRenameFile,
  'disable-files': buildDisableFiles,
  'containerd-enable-cri': buildContainerdEnableCri,
  'containerd-add-bin-dir': buildContainerdAddBinDir,
  'containerd-set-conf-dir': buildContainerdSetConfDir,
  'containerd-set-systemd-cgroup': buildContainerdSetSystemdCgroup,
  'crio-add-plugin-dir': buildCrioAddPluginDir,
  'crio-set-network-dir': buildCrioSetNetworkDir,
  'crio-set-default-network': buildCrioSetDefaultNetwork,
  'crio-set-cgroup-manager': buildCrioSetCgroupManager,
  'write-crictl-config': buildWriteCrictlConfig,
  'kubelet-set-endpoint': buildKubeletSetEndpoint,
  'kubelet-remove-flags': buildKubeletRemoveFlags,
  'restart-service': buildRestartService,
  'hns-create-nat-network': buildHnsCreateNatNetwork,
  'hns-remove-endpoints': buildHnsRemoveEndpoints,
  'antrea-restart': buildAntreaRestart,
};
