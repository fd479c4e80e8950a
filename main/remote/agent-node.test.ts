import { describe, expect, it } from 'vitest';
import { AgentSession } from './agent-session';
import { LocalShellTransport } from './testing/local-transport';
import { NODE_SHELLS } from './testing/shells';

const root = process.getuid?.() === 0;
const NOBODY = 65534;

describe.each(NODE_SHELLS)("the node's answer (%s)", (_name, shell) => {
  it('gives the effective uid of the shell on the node', async () => {
    const s = new AgentSession(new LocalShellTransport(shell));
    try {
      const a = await s.ask({ op: 'node' });
      expect(a.values[0]).toBe(process.getuid?.());
    } finally {
      await s.close();
    }
  });

  it.runIf(root)("and another user's, not root's, when the agent runs as that user", async () => {
    const as = ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'];
    const s = new AgentSession(new LocalShellTransport([...as, ...shell]));
    try {
      const a = await s.ask({ op: 'node' });
      expect(a.values[0]).toBe(NOBODY);
    } finally {
      await s.close();
    }
  });
});
