// Removing a lab's pod sandboxes through CRI, the way kubelet would, before the host cleanup.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CriClient } from '../../main/cri/client';
import { bridgeConflist } from './cni-conf';
import { labConfigToml } from './config-toml';
import type { LabPaths } from './paths';

export interface SandboxRemoval {
  removed: string[];
  /** "<id>: <error>" for each sandbox CRI would not stop or remove. */
  failed: string[];
}

/** Stop + Remove every sandbox; ids seen are added to `seen` (for the libcni cache cleanup). */
export async function removeAllSandboxes(
  cri: CriClient,
  seen: Set<string>,
): Promise<SandboxRemoval> {
  const out: SandboxRemoval = { removed: [], failed: [] };
  let sandboxes;
  try {
    sandboxes = await cri.listPodSandbox();
  } catch {
    return out; // CRI disabled or down: nothing can have been created through it
  }
  for (const s of sandboxes) {
    seen.add(s.id);
    try {
      await cri.stopPodSandbox(s.id);
      await cri.removePodSandbox(s.id);
      out.removed.push(s.id);
    } catch (e) {
      out.failed.push(`${s.id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}

/**
 * StopPodSandbox runs CNI DEL with the *current* CNI config, so a sandbox made under a broken
 * config (missing plugin, wrong bin_dir) cannot be stopped until the config works
 * (docs/knowledge/lab.md#a-real-pod-sandbox). This swaps in the default lab config and a single working network;
 * the caller restarts containerd so both load at init (no reliance on fsnotify).
 */
export function installRecoveryConfig(p: LabPaths, bridge: string, subnet: string): void {
  for (const f of readdirSync(p.confDir))
    rmSync(join(p.confDir, f), { recursive: true, force: true });
  writeFileSync(
    join(p.confDir, '00-lab-teardown.conflist'),
    bridgeConflist({ name: 'lab-teardown', bridge, subnet, dataDir: p.ipamDir }),
  );
  writeFileSync(p.configPath, labConfigToml(p));
}
