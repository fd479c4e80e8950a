/** What the kubelet repairs share: its restart, and whether a file is a systemd unit drop-in. */
export const KUBELET_RESTART_IMPACT =
  'The kubelet restarts (a few seconds). Running pods keep running; the node may report NotReady briefly while the kubelet re-syncs.';

/** Editing a unit drop-in needs `systemctl daemon-reload` before the restart. */
export function isSystemdDropIn(path: string): boolean {
  return /\.service\.d\//.test(path);
}
