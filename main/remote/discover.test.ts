import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverTargets, rememberTarget, rememberedTarget, sshConfigHosts } from './discover';

const dir = mkdtempSync(join(tmpdir(), 'cnd-discover-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('target discovery', () => {
  it('reads Host names from ssh_config, skipping patterns', () => {
    expect(
      sshConfigHosts('Host *\n  User x\nHost node1 node2\nhost !bad w?ld\n  Host node3\n'),
    ).toEqual(['node1', 'node2', 'node3']);
  });

  it('finds kind and k3d node containers by their labels; never offers a name the engine would refuse', async () => {
    // A stand-in engine client answering `ps --filter label=…` and `inspect --format …` like podman.
    const fake = join(dir, 'podman');
    writeFileSync(
      fake,
      `#!/bin/sh
case "$1 $3" in
  "ps label=io.x-k8s.kind.cluster") printf 'dev-control-plane\\n-bad name\\n' ;;
  "ps label=k3d.cluster") printf 'k3d-lab-server-0\\n' ;;
  "ps "*) ;;
  "inspect "*)
    case "$4" in
      dev-control-plane) printf 'dev\\t\\t\\tcontrol-plane\\t\\n' ;;
      k3d-lab-server-0) printf '\\t\\tlab\\t\\tserver\\n' ;;
    esac ;;
esac
`,
    );
    chmodSync(fake, 0o755);
    const old = process.env.PATH;
    process.env.PATH = `${dir}:${old}`;
    try {
      const d = await discoverTargets({
        engines: ['podman'],
        kubectl: join(dir, 'no-kubectl'),
        sshConfig: join(dir, 'none'),
        rememberFile: join(dir, 'none'),
      });
      expect(d.targets).toEqual([
        {
          target: 'container:podman/dev-control-plane',
          what: 'kind cluster dev (control-plane) via podman',
          source: 'kind',
        },
        {
          target: 'container:podman/k3d-lab-server-0',
          what: 'k3d cluster lab (server) via podman',
          source: 'k3d',
        },
      ]);
      expect(d.notes.join('\n')).toMatch(/kubectl: not installed/);
    } finally {
      process.env.PATH = old;
    }
  });

  it('remembers the last target and refuses a planted invalid one', async () => {
    const f = join(dir, 'cfg', 'last-target');
    await rememberTarget('container:docker/kind-control-plane', f);
    expect(await rememberedTarget(f)).toBe('container:docker/kind-control-plane');
    writeFileSync(f, 'ssh:-oProxyCommand=evil\n');
    expect(await rememberedTarget(f)).toBeUndefined();
  });
});
