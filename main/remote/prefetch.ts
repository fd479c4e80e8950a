/**
 * What a default Linux scan's probes ask for first, taken from the probes' own constants where
 * they export them, so the first exchange with the node agent answers most of a scan. Anything
 * missing here is fetched on demand (one more exchange on the same program run, not a new run).
 */
import { READ_LIMITS } from '../bundle/limits';
import { CONTAINERD_LOCATIONS } from '../probes/containerd';
import { CRICTL_PATHS } from '../probes/crictl';
import { WELL_KNOWN_LINUX_ENDPOINTS } from '../probes/endpoints';
import { endpointToPath } from '../conventions/endpoint';
import { JOURNAL_UNITS, LOG_FILES } from '../probes/logs';
import { SERVICE_NAMES } from '../probes/versions';
import type { AgentRequest } from './agent-session';
import { WELL_KNOWN_BIN_DIRS, WELL_KNOWN_CONF_DIRS } from '../conventions/cni-files';
import { KERNEL_PATHS } from '../conventions/kernel-paths';
import { HOST_LOCAL_DIR } from '../probes/ipam';

export const LIST_MAX = 100_000;

export function defaultPrefetch(): AgentRequest[] {
  const reads = [
    '/etc/os-release',
    ...CONTAINERD_LOCATIONS.linux.map((l) => l.config),
    ...CRICTL_PATHS.linux,
    '/var/lib/kubelet/kubeadm-flags.env',
    '/etc/default/kubelet',
    '/etc/sysconfig/kubelet',
    '/var/lib/kubelet/config.yaml',
    '/etc/crio/crio.conf',
    '/etc/containers/containers.conf',
    '/usr/share/containers/containers.conf',
    KERNEL_PATHS.ipForward,
    KERNEL_PATHS.bridgeNfCallIptables,
    KERNEL_PATHS.disableIpv6,
  ];
  const lists = [
    ...WELL_KNOWN_CONF_DIRS.linux,
    ...WELL_KNOWN_BIN_DIRS.linux,
    '/etc/crio/crio.conf.d',
    '/usr/lib/systemd/system/kubelet.service.d',
    '/etc/systemd/system/kubelet.service.d',
    '/lib/systemd/system/kubelet.service.d',
    // host-local's reservations: one listing answers every network without a folder there.
    HOST_LOCAL_DIR,
  ];
  // Each stat here was otherwise one more exchange, asked after the answer before it.
  const stats = [
    ...WELL_KNOWN_LINUX_ENDPOINTS.map((e) => endpointToPath(e.endpoint).path),
    ...LOG_FILES.linux,
    ...CONTAINERD_LOCATIONS.linux.map((l) => l.config),
    ...WELL_KNOWN_CONF_DIRS.linux,
    KERNEL_PATHS.brNetfilterModule,
    KERNEL_PATHS.ipv6,
  ];
  return [
    { op: 'node' },
    { op: 'procs' },
    { op: 'services', names: SERVICE_NAMES.linux },
    ...reads.map((path): AgentRequest => ({ op: 'read', path, max: READ_LIMITS.configBytes })),
    ...lists.map((path): AgentRequest => ({ op: 'list', path, max: LIST_MAX })),
    ...[...new Set(stats)].map((path): AgentRequest => ({ op: 'stat', path })),
    ...LOG_FILES.linux.map((path): AgentRequest => ({
      op: 'tail',
      path,
      bytes: READ_LIMITS.logTailBytes,
    })),
    ...JOURNAL_UNITS.map((unit): AgentRequest => ({
      op: 'journal',
      unit,
      lines: READ_LIMITS.journalLines,
    })),
    { op: 'which', program: 'socat' },
  ];
}
