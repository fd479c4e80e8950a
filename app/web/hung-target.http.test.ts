/**
 * `serve` with nodes that hang (issue 20 point 3; red-team H4): two node containers that greet
 * and never answer must not block a scan of a demo or of another node, and a scan whose browser
 * request was aborted is cancelled — its node program stopped — instead of holding its slot.
 * The "engine" is a stand-in `podman` on PATH: for `hung-*` containers it greets and sleeps, for
 * `good` it runs the real agent on this machine.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Envelope, ScanResponse } from '../../shared/api';
import { createDispatcher } from '../shared-server/dispatch';
import { createEngineBackend, type EngineBackend } from '../shared-server/engine-backend';
import { engineRepairs } from '../shared-server/engine-repairs';
import { ProgressBus } from '../shared-server/progress';
import { TargetRegistry } from '../shared-server/targets';
import { startWebServer, type WebServer } from './server';
import { until } from '../../shared/until.testutil';

const DEMOS = join(process.cwd(), 'assets', 'demo');
const TOKEN = 't'.repeat(43);
let dir: string;
let pathBefore: string | undefined;
let backend: EngineBackend | undefined;
let server: WebServer | undefined;

beforeAll(async () => {
  // A scan of a target loads the remote modules on first use. In a fresh clone under load their
  // first transform took over 60 s (CI): load them here, so the waits below time only the scans.
  await import('../../main/remote/open-target');
  await import('../../main/remote/remote-host');
  dir = mkdtempSync(join(tmpdir(), 'cnd-hung-serve-'));
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'pids'));
  // argv: exec -i NAME sh -c AGENT
  writeFileSync(
    join(dir, 'bin', 'podman'),
    `#!/bin/sh
if [ "$3" = good ]; then shift 3; exec "$@"; fi
echo $$ > "${join(dir, 'pids')}/$3.$$"
echo '@ cni-doctor-agent 1 B'
exec sleep 1000
`,
  );
  chmodSync(join(dir, 'bin', 'podman'), 0o755);
  pathBefore = process.env.PATH;
  process.env.PATH = `${join(dir, 'bin')}:${process.env.PATH}`;
}, 300_000);
afterEach(async () => {
  await server?.close();
  await backend?.dispose();
  server = undefined;
  backend = undefined;
  for (const f of readdirSync(join(dir, 'pids'))) {
    try {
      process.kill(Number(f.split('.')[1]), 'SIGKILL');
    } catch {
      // Already gone (cancelled, as it should be).
    }
    rmSync(join(dir, 'pids', f));
  }
});
afterAll(() => {
  process.env.PATH = pathBefore;
  rmSync(dir, { recursive: true, force: true });
});

async function serve() {
  const progress = new ProgressBus();
  backend = await createEngineBackend({
    door: 'web',
    progress,
    repairs: engineRepairs({ stateDir: join(dir, 'state') }),
    demosDir: DEMOS,
    tmpRoot: dir,
    targets: new TargetRegistry(async () => ({ targets: [], notes: [] })),
    rememberFile: join(dir, 'last-target'),
  });
  server = await startWebServer({
    dispatcher: createDispatcher({ backend }),
    progress,
    token: TOKEN,
  });
  const port = server.port;
  const post = async (
    op: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<Envelope<ScanResponse>> => {
    const res = await fetch(`http://127.0.0.1:${port}/api/${op}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      ...(signal && { signal }),
    });
    return (await res.json()) as Envelope<ScanResponse>;
  };
  const target = async (t: string): Promise<string> => {
    const r = (await post('add-target', { target: t })) as unknown as Envelope<{
      targetId: string;
    }>;
    if (!r.ok) throw new Error(JSON.stringify(r));
    return r.result.targetId;
  };
  return { post, target };
}

/** Hung node programs running now, by container name. */
function hung(name: string): number[] {
  return readdirSync(join(dir, 'pids'))
    .filter((f) => f.startsWith(`${name}.`))
    .map((f) => Number(f.split('.')[1]))
    .filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
}

describe('serve with hung nodes', () => {
  it('two hung nodes block neither a demo nor another node', { timeout: 120_000 }, async () => {
    const { post, target } = await serve();
    const [a, b, good] = [
      await target('container:podman/hung-a'),
      await target('container:podman/hung-b'),
      await target('container:podman/good'),
    ];
    const gone = new AbortController();
    const stuck = [a, b].map((targetId) =>
      post('scan', { source: 'target', targetId }, gone.signal).catch(() => undefined),
    );
    // Each node's first answer needs a podman exec: seconds apiece on a loaded machine.
    await until(
      () => hung('hung-a').length + hung('hung-b').length === 2,
      'both hung nodes asked',
      { timeoutMs: 90_000 },
    );
    // The node deadline is 60 s: these must not wait for it.
    const demo = await post('scan', { source: 'demo', demoId: 'healthy-node' });
    expect(demo.ok, JSON.stringify(demo)).toBe(true);
    const other = await post('scan', { source: 'target', targetId: good });
    expect(other.ok, JSON.stringify(other)).toBe(true);
    expect(other.ok && other.result.report.target?.transport).toBe('podman exec');
    gone.abort();
    await Promise.all(stuck);
  });

  it('a scan whose request was aborted stops its node program', { timeout: 120_000 }, async () => {
    const { post, target } = await serve();
    const a = await target('container:podman/hung-a');
    const gone = new AbortController();
    const scan = post('scan', { source: 'target', targetId: a }, gone.signal).catch((e) => e);
    await until(() => hung('hung-a').length === 1, 'the hung node asked', { timeoutMs: 90_000 });
    gone.abort();
    await scan;
    await until(() => hung('hung-a').length === 0, "the aborted scan's node program stopped", {
      timeoutMs: 90_000,
    });
  });
});
