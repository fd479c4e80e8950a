import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AGENT_SH } from './agent-sh';

// The agent is shipped inside the bundle (no file next to dist/ to read at run time), so the
// embedded copy must be the script itself.
describe('embedded node agent', () => {
  it('agent-sh.ts is identical to agent.sh', () => {
    const text = readFileSync(new URL('./agent.sh', import.meta.url), 'utf8');
    if (process.env.UPDATE_FIXTURES === '1')
      writeFileSync(
        new URL('./agent-sh.ts', import.meta.url),
        `// Generated from agent.sh by scripts/embed.test.ts (UPDATE_FIXTURES=1). Do not edit: edit agent.sh.\nexport const AGENT_SH = ${JSON.stringify(text)};\n`,
      );
    expect(AGENT_SH, 'run with UPDATE_FIXTURES=1 to refresh agent-sh.ts').toBe(text);
  });
});
