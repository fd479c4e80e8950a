import { describe, expect, it } from 'vitest';
import { endProgram, spawnClient } from './transport';

describe('ending a program on a node (endProgram)', () => {
  it('closes its input and lets its client exit by itself, cleaning up as it goes', async () => {
    // Stands for `podman exec … socat`: ends on EOF, then takes a while to tear down.
    const p = spawnClient('sh', ['-c', 'cat >/dev/null; sleep 0.2; exit 7']);
    endProgram(p, 60_000);
    expect(await p.exit).toEqual({ code: 7, signal: null });
  });

  it('kills a client that does not exit after its input ended, past the teardown bound', async () => {
    const p = spawnClient('sh', ['-c', 'trap "" HUP; exec sleep 100']);
    endProgram(p, 200);
    expect(await p.exit).toEqual({ code: null, signal: 'SIGKILL' });
  });
});
