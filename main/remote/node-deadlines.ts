/**
 * How long a node may keep us waiting. A node that greets and then never answers (a hostile node,
 * or a real one wedged on a dead NFS mount) must end the command with a clear error, not hang it.
 * The defaults suit a slow real node: the slowest honest answer is crictl's (three calls of up to
 * 15 s each on the node), or a 64 MiB log tail over a slow link (~90 MB of base64).
 */
export interface NodeDeadlines {
  /** One answer, from when it became due (asked, and the answer before it complete). */
  answerMs: number;
  /** All the time one command spends waiting on the node (time with no question out is free). */
  sessionMs: number;
}

export const NODE_DEADLINES: NodeDeadlines = {
  answerMs: 60_000,
  sessionMs: 600_000,
};
