/** What running pods notice when CNI configs change (docs/knowledge/node-layouts.md#what-each-repair-does-to-a-running-node, rename row). */
export const CNI_RENAME_IMPACT =
  'Running pods keep their IPs and interfaces. The runtime reloads its CNI config on the rename (containerd and CRI-O watch the conf dir), and new pods use the config that now wins. ' +
  "Pods created under the disabled network are later torn down with the new network's DEL, so their old IP reservations and veths can leak: recreate them soon (drain the node, or delete those pods).";
