import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { targetEnvironment } from './repair-environment';
import { TransportNodeFs } from './transport-node-fs';

// A stand-in engine client first on PATH: it logs every command line it is given and answers
// the node-side programs as a root node would. A node container's repairs must never open its
// files from this machine (at /proc/PID/root, where a symlink the node swaps in resolves against
// this machine's root: red-team review B1); every file and journal operation is an exec into it.
const FAKE = `#!/bin/sh
# exec -i NAME sh -c SCRIPT ARG0 ARGS…: the script is long, the words around it are logged.
case $1 in exec) ;; *) echo "unexpected: $*" >&2; exit 1 ;; esac
a="$1 $2 $3 $4 $5"; shift 6
printf '%s <script> %s\\n' "$a" "$*" >> "$CND_FAKE_LOG"
if [ "$1" = cni-doctor-files ]; then
  case $2 in
    uid) echo 0 ;;
    list) exit 3 ;;
    *) echo "not in this test: $2" >&2; exit 1 ;;
  esac
  exit 0
fi
echo none
`;

let dir: string;
let savedPath: string | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cnd-fake-engine-'));
  for (const engine of ['podman', 'docker', 'nerdctl']) {
    writeFileSync(join(dir, engine), FAKE);
    chmodSync(join(dir, engine), 0o755);
  }
  savedPath = process.env.PATH;
  process.env.PATH = `${dir}:${savedPath ?? ''}`;
  process.env.CND_FAKE_LOG = join(dir, 'log');
  writeFileSync(join(dir, 'log'), '');
});
afterEach(() => {
  process.env.PATH = savedPath;
  delete process.env.CND_FAKE_LOG;
  rmSync(dir, { recursive: true, force: true });
});

const calls = (): string[] => readFileSync(join(dir, 'log'), 'utf8').split('\n').filter(Boolean);

describe('repairs through a node container', () => {
  it.each(['podman', 'docker', 'nerdctl'] as const)(
    '%s: files, journal and lock all go through exec into the node; nothing is opened from here',
    async (engine) => {
      const env = await targetEnvironment({ kind: 'container', engine, name: 'node1' });
      try {
        expect(env.fs).toBeInstanceOf(TransportNodeFs);
        expect(env.fs.root).toBe(`container:${engine}/node1`);
        // The node's own state dir, as a node path: resolved by the node, never by this machine.
        expect(env.stateDir).toBe('/var/lib/cni-doctor');
        expect(env.stateIo).toBeDefined();
        expect(env.lockNode).toBeDefined();
        expect(env.isElevated()).toBe(true);
        await expect(env.stateIo?.readdir('/var/lib/cni-doctor/journal')).rejects.toMatchObject({
          code: 'ENOENT',
        });
      } finally {
        await env.close();
      }
      const log = calls();
      // No `inspect` for a PID to reach /proc/PID/root: every call is a program run in the node.
      expect(log.length).toBeGreaterThanOrEqual(3);
      for (const line of log) expect(line).toMatch(/^exec -i node1 sh -c <script> /);
      expect(
        log.some((l) => l.endsWith('<script> cni-doctor-files list /var/lib/cni-doctor/journal')),
      ).toBe(true);
    },
  );
});
