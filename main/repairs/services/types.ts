/** Restarting the services a repair names: systemd, Windows services, or a test/lab process. */
export interface RestartOptions {
  /** systemd: reload unit files first (a drop-in changed). */
  daemonReload?: boolean;
}

export interface ServiceManager {
  /** `systemd`, `windows`, `process`, `offline` — shown in previews and journals. */
  readonly kind: string;
  /** Restarts really happen (false for a node disk under --root). */
  readonly live: boolean;
  /** Restart and return when the manager reports it done; throws with the manager's words on failure. */
  restart(name: string, opts?: RestartOptions): Promise<void>;
  isActive(name: string): Promise<boolean>;
}

/** Service names go to systemctl/PowerShell as arguments, never through a shell; still, only sane names. */
export function assertServiceName(name: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9@._-]{0,127}$/.test(name))
    throw new Error(`invalid service name "${name}"`);
}
