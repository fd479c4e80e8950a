/**
 * Everything the repair engine needs from the door that runs it (CLI, desktop, serve, tests, the
 * lab): how to scan, where files are, who restarts services, whether we are root, where the
 * journal lives. Defaults for a real node are in local-environment.ts.
 */
import type { Snapshot } from '../../shared/model/snapshot';
import type { Evaluation } from '../engine/evaluate';
import type { ScanResult } from '../engine/scan';
import type { Lock } from './journal/lock';
import type { StateIo } from './journal/store';
import type { NodeFs } from './node-fs';
import type { PowerShellRunner } from './services/powershell';
import type { ServiceManager } from './services/types';

/** What verification looks at: a rescan (with its snapshot when available, for CRI answers). */
export type Rescan = Evaluation & { snapshot?: Snapshot };

export interface RepairEnvironment {
  /** A fresh scan of the node: every apply recomputes its plan from one. */
  scan(): Promise<ScanResult>;
  /** The scan verification uses; default: scan(). */
  rescan?(): Promise<Rescan>;
  fs: NodeFs;
  services: ServiceManager;
  powershell?: PowerShellRunner;
  /** Effective uid 0 / Administrator. */
  isElevated(): boolean | Promise<boolean>;
  /**
   * Where the journal and backups live: a directory only root can write (docs/security.md). For a
   * local --root, on this machine and keyed by the root, never on the examined disk.
   */
  stateDir: string;
  /** The file system stateDir is on, when it is not this machine's (a node over ssh). */
  stateIo?: StateIo;
  /**
   * The node's lock, when the target brings its own (a remote node locks there). Default: the
   * kernel lock of (this machine, fs.root) in journal/lock.ts.
   */
  lockNode?(): Promise<Lock>;
  /** How long to wait for another run's lock before refusing (default 15 s). */
  lockWaitMs?: number;
  /** Called after each journal transition is persisted (progress; crash tests kill here). */
  onTransition?(point: string): void;
  /** Verification keeps rescanning until it passes or this much time has gone by. */
  verifyTimeoutMs?: number;
  verifyIntervalMs?: number;
  /** How long a restarted service may take to become active (default 30 s). */
  serviceWaitMs?: number;
  /**
   * The node's name for the journal (`history` shows it): a target's node (a node container's
   * name, a Kubernetes node, an ssh host). Default: this machine's hostname.
   */
  nodeName?: string;
  /** The command that reruns a repair with privileges, for refusals. */
  rerunCommand?(repairId: string): string;
  now?(): Date;
  /**
   * Releases what reaching the node holds (an ssh master connection, a kubectl debug pod).
   * Every door calls it when its command is done, however the command ended (usingEnvironment).
   */
  close?(): Promise<void>;
}

/** Runs `fn` on `env`, then closes it, whatever happened (a failure to close is not the answer). */
export async function usingEnvironment<T>(
  env: RepairEnvironment,
  fn: (env: RepairEnvironment) => Promise<T>,
): Promise<T> {
  try {
    return await fn(env);
  } finally {
    await env.close?.().catch(() => undefined);
  }
}

export const DEFAULT_RERUN = (repairId: string): string =>
  `sudo npx cni-doctor fix ${repairId} --yes`;
