import { existsSync } from 'node:fs';

/**
 * The shells a test runs the node's scripts under, as [name, the prefix a LocalShellTransport
 * puts before `sh -c …`]: the system's sh (dash on Debian), and busybox's where it is installed
 * (k3s-like nodes have nothing else).
 */
export const NODE_SHELLS: readonly [string, string[]][] = [
  ['sh', []],
  ...(existsSync('/usr/bin/busybox') || existsSync('/bin/busybox')
    ? [['busybox sh', ['busybox']] as [string, string[]]]
    : []),
];
