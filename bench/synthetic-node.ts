/**
 * A synthetic Linux node disk for benchmarks: N CNI configs (real shapes from the samples),
 * containerd and kubelet config, and M MB of realistic runtime/kubelet logs with a sprinkling
 * of known error signatures.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

const CONFLIST = (i: number): string =>
  JSON.stringify(
    {
      cniVersion: '1.0.0',
      name: `net-${i}`,
      plugins: [
        {
          type: 'bridge',
          bridge: `cni${i}`,
          isGateway: true,
          ipMasq: true,
          ipam: { type: 'host-local', ranges: [[{ subnet: `10.${i % 250}.0.0/16` }]] },
        },
        { type: 'portmap', capabilities: { portMappings: true } },
      ],
    },
    null,
    2,
  );

const LOG_LINES = [
  'time="2026-12-01T10:00:00.000000000Z" level=info msg="RunPodSandbox for &PodSandboxMetadata{Name:web-7d9f,Uid:abc,Namespace:default,Attempt:0,}"',
  'time="2026-12-01T10:00:00.100000000Z" level=info msg="loading plugin \\"io.containerd.grpc.v1.cri\\"..." type=io.containerd.grpc.v1',
  'I1201 10:00:00.200000    1234 kubelet.go:2345] "SyncLoop (PLEG): event for pod" pod="default/web-7d9f" event={"ID":"abc","Type":"ContainerStarted"}',
  'I1201 10:00:00.300000    1234 reconciler_common.go:258] "operationExecutor.VerifyControllerAttachedVolume started for volume"',
  'time="2026-12-01T10:00:00.400000000Z" level=info msg="StartContainer for \\"0123456789abcdef\\" returns successfully"',
];
const BAD_LINES = [
  'time="2026-12-01T10:00:01Z" level=error msg="RunPodSandbox for &PodSandboxMetadata{Name:web} failed" error="failed to setup network for sandbox \\"abc\\": plugin type=\\"flannel\\" failed (add): failed to find plugin \\"flannel\\" in path [/opt/cni/bin]"',
  'E1201 10:00:01.000000    1234 kubelet.go:2855] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"',
];

export interface SyntheticNode {
  root: string;
  bytes: number;
  /** Every file written (absolute paths); logs are the last four. */
  files: string[];
  logs: string[];
}

/** 4,000 lines (about 600 KiB) with two known errors in them; repeated to any size. */
function logChunk(): Buffer {
  const parts: string[] = [];
  for (let n = 0; n < 4000; n++)
    parts.push(
      n % 1000 === 999
        ? (BAD_LINES[n % BAD_LINES.length] as string)
        : (LOG_LINES[n % LOG_LINES.length] as string),
    );
  return Buffer.from(`${parts.join('\n')}\n`);
}

/** Writes a log of about `megabytes` MiB; the same chunk over and over keeps a 1 GiB log quick. */
async function writeLog(file: string, megabytes: number): Promise<number> {
  const chunk = logChunk();
  // Batches of chunks per write: one syscall per ~16 MiB instead of per 600 KiB.
  const batch = Buffer.concat(Array.from({ length: 26 }, () => chunk));
  const handle = await fsp.open(file, 'w');
  let written = 0;
  const target = megabytes * 1024 * 1024;
  try {
    while (written < target) {
      const piece = target - written >= batch.length ? batch : chunk;
      await handle.write(piece);
      written += piece.length;
    }
  } finally {
    await handle.close();
  }
  return written;
}

export async function makeSyntheticNode(
  root: string,
  opts: {
    cniFiles: number;
    /** Spread over containerd, kubelet, CRI-O and k3s logs. */
    logMegabytes: number;
    /** When set, var/log/containerd.log alone is this big (the 1 GiB log). */
    containerdLogMegabytes?: number;
  },
): Promise<SyntheticNode> {
  const files: string[] = [];
  let bytes = 0;
  const put = async (rel: string, content: string): Promise<void> => {
    const p = path.join(root, rel);
    await fsp.mkdir(path.dirname(p), { recursive: true });
    await fsp.writeFile(p, content);
    files.push(p);
    bytes += Buffer.byteLength(content);
  };
  for (let i = 0; i < opts.cniFiles; i++)
    await put(`etc/cni/net.d/${String(i).padStart(3, '0')}-net.conflist`, CONFLIST(i));
  await put(
    'etc/containerd/config.toml',
    'version = 2\n\n[plugins."io.containerd.grpc.v1.cri".cni]\n  bin_dir = "/opt/cni/bin"\n  conf_dir = "/etc/cni/net.d"\n',
  );
  await put(
    'var/lib/kubelet/config.yaml',
    'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\ncontainerRuntimeEndpoint: unix:///run/containerd/containerd.sock\n',
  );
  for (const b of ['bridge', 'host-local', 'loopback', 'portmap'])
    await put(`opt/cni/bin/${b}`, '#!/bin/sh\n');
  const logs = [
    'var/log/containerd.log',
    'var/log/kubelet.log',
    'var/log/crio.log',
    'var/lib/rancher/k3s/agent/containerd/containerd.log',
  ];
  const per = Math.max(1, Math.floor(opts.logMegabytes / logs.length));
  for (const rel of logs) {
    const p = path.join(root, rel);
    await fsp.mkdir(path.dirname(p), { recursive: true });
    const size =
      rel === 'var/log/containerd.log' && opts.containerdLogMegabytes !== undefined
        ? opts.containerdLogMegabytes
        : per;
    bytes += await writeLog(p, size);
    files.push(p);
  }
  return { root, bytes, files, logs: logs.map((rel) => path.join(root, rel)) };
}
