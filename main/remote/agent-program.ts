import { AGENT_SH } from './scripts/agent-sh';

/** The node agent (scripts/agent.sh) as the program a transport runs on the node. */
export const AGENT_PROGRAM: readonly string[] = ['sh', '-c', AGENT_SH];
