/** The node's own state dir for repairs made through a transport (as on the node itself). */
export const DEFAULT_STATE_DIR_LINUX = '/var/lib/cni-doctor';
