import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { captureIo } from '../../../fixtures/capture-io';
import { main } from '../main';

// A kubectl that answers with the API answers recorded from a real cluster (fixtures/cluster).
const REPLAY = fileURLToPath(
  new URL('../../../fixtures/cluster/replay-kubectl.mjs', import.meta.url),
);
const before = process.env.PATH;
afterEach(() => {
  process.env.PATH = before;
});

describe('cni-doctor cluster', () => {
  it('says plainly when no API server answers (exit 2, one line)', async () => {
    process.env.PATH = '/nonexistent';
    const io = captureIo();
    expect(await main(['cluster'], io)).toBe(2);
    expect(io.stderr.at(-1)).toMatch(/^cni-doctor cluster: the cluster view needs kubectl/);
    expect(io.stdout).toEqual([]);
  });

  it('prints the recorded cluster: the node, its stuck pods grouped by signature', async () => {
    const { mkdtempSync, symlinkSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const bin = mkdtempSync(join(tmpdir(), 'cnd-kubectl-path-'));
    symlinkSync(REPLAY, join(bin, 'kubectl'));
    process.env.PATH = `${bin}:${before ?? ''}`;
    const io = captureIo();
    expect(await main(['cluster', '--json'], io)).toBe(0);
    const view = JSON.parse(io.stdout.join('\n')) as {
      nodes: { name: string; stuck: { key: string; pods: unknown[] }[] }[];
    };
    expect(view.nodes[0]?.name).toBe('lab-node');
    expect(view.nodes[0]?.stuck[0]).toMatchObject({ key: 'linux.cni.plugin-not-found' });
    const text = captureIo();
    expect(await main(['cluster'], text)).toBe(0);
    expect(text.stdout.join('\n')).toMatch(
      /4 stuck: A CNI plugin binary is missing from the runtime's bin dir \[linux\.cni\.plugin-not-found\]/,
    );
  });

  it('refuses --node without --scan and a context that reads as a flag', async () => {
    expect(await main(['cluster', '--node', 'x'], captureIo())).toBe(2);
    const io = captureIo();
    expect(await main(['cluster', '--context', '-x'], io)).toBe(2);
  });
});

describe('cni-doctor daemonset', () => {
  it('prints the manifests only when asked, with the period and image given', async () => {
    expect(await main(['daemonset'], captureIo())).toBe(2);
    expect(await main(['daemonset', '--print', '--period', '5'], captureIo())).toBe(2);
    const io = captureIo();
    expect(await main(['daemonset', '--print', '--image', 'r/cd:1', '--period', '20'], io)).toBe(0);
    const y = io.stdout.join('\n');
    expect(y).toContain('image: "r/cd:1"');
    expect(y).toContain('- "20"');
    expect(y).toContain('  resources:\n  - "nodes/status"');
  });
});
