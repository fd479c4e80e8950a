// Every path one lab uses, all under one short temp dir (unix socket paths must stay < 108
// bytes), plus the few host-wide names the lab owns (bridge prefix, cgroup parent).
import { join } from 'node:path';

export interface LabPaths {
  /** The lab's private directory; removing it removes all lab state. */
  dir: string;
  root: string;
  state: string;
  socket: string;
  configPath: string;
  confDir: string;
  binDir: string;
  runcRoot: string;
  optDir: string;
  /** host-local IPAM `dataDir` for the lab's CNI configs (instead of /var/lib/cni/networks). */
  ipamDir: string;
  podLogDir: string;
  containerdLog: string;
  /** Pause image tarball and build scratch. */
  imageDir: string;
  sandboxImage: string;
  /** cgroup parent of the lab's sandboxes (cgroupfs syntax), e.g. /cni-doctor-lab-1a2b3c. */
  cgroupParent: string;
  /** Every bridge the lab's CNI configs create starts with this (≤ 15-byte interface names). */
  bridgePrefix: string;
}

export function labPaths(dir: string, id: string, binDir: string, sandboxImage: string): LabPaths {
  return {
    dir,
    root: join(dir, 'root'),
    state: join(dir, 'state'),
    socket: join(dir, 'run', 'containerd.sock'),
    configPath: join(dir, 'config.toml'),
    confDir: join(dir, 'net.d'),
    binDir,
    runcRoot: join(dir, 'runc'),
    optDir: join(dir, 'opt'),
    ipamDir: join(dir, 'ipam'),
    podLogDir: join(dir, 'pods'),
    containerdLog: join(dir, 'containerd.log'),
    imageDir: join(dir, 'image'),
    sandboxImage,
    cgroupParent: `/cni-doctor-lab-${id}`,
    bridgePrefix: `cnd${id}`,
  };
}
