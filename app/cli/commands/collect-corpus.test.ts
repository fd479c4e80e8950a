/**
 * Issue 20, point 4, through `collect`: a node disk holding every file of the secret corpus
 * (fixtures/secret-corpus) is collected with `collect --root`, the archive is read back, and each
 * file in it is the node's file with exactly its secret values replaced by REDACTED. Process
 * command lines and Windows service command lines go through the RecordingHost that `collect`
 * records with (processes of a memory node; a fake Windows node's services).
 *
 * `collect` reads a file because a probe looks at it (runtime configs and drop-ins, kubelet flag
 * files, CNI confs, logs) or because a CNI conf names it under a `kubeconfig` key (what Calico
 * and Multus point their plugin to). Files no probe reads (hosts.toml, auth.json, cloud configs,
 * a PGP key) are named by one more conf on this disk, so that every corpus file takes collect's
 * own path from disk to archive.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { extract } from 'tar';
import { main } from '../main';
import { captureIo } from '../../../fixtures/capture-io';
import { baseTree } from '../../../fixtures/hostile/build';
import {
  CORPUS,
  planted,
  redacted,
  secretsOf,
  markedTexts,
  type FileCase,
} from '../../../fixtures/secret-corpus/corpus';
import { RecordingHost } from '../../../main/host/recording-host';
import { memoryNode } from '../../../main/host/memory-node.testutil';
import { WindowsHost } from '../../../main/host/windows/windows-host';
import { FakeWindowsNode } from '../../../main/host/windows/testing/fake-node';

const work = mkdtempSync(path.join(tmpdir(), 'collect-corpus-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

const files = CORPUS.filter((c): c is FileCase => c.kind === 'file');
const ALL_SECRETS = CORPUS.flatMap((c) => markedTexts(c).flatMap(secretsOf));

describe('collect of a node holding the secret corpus', () => {
  it('ships every corpus file with exactly its secret values redacted', async () => {
    const refs = {
      cniVersion: '1.0.0',
      name: 'node-files',
      plugins: files.map((f) => ({ type: 'multus', kubeconfig: f.path })),
    };
    const root = baseTree(path.join(work, 'root'), {
      ...Object.fromEntries(files.map((f) => [f.path, planted(f.text)])),
      '/etc/cni/net.d/99-node-files.conflist': JSON.stringify(refs),
    });
    const out = path.join(work, 'node.tar.gz');
    const io = captureIo();
    const code = await main(['collect', '--root', root, '--out', out, '--cri-timeout', '200'], io);
    expect(code, io.stderr.join('\n')).toBe(0);

    const unpacked = path.join(work, 'unpacked');
    mkdirSync(unpacked);
    await extract({ file: out, cwd: unpacked });
    for (const f of files) {
      const shipped = path.join(unpacked, 'files', f.path);
      expect(existsSync(shipped), `${f.path} was collected`).toBe(true);
      expect(readFileSync(shipped, 'utf8'), f.path).toBe(redacted(f.text));
    }
    // And no value anywhere in the archive (manifest included).
    for (const file of walk(unpacked)) {
      const text = readFileSync(file, 'latin1');
      for (const s of ALL_SECRETS) expect(text.includes(s), `${s} in ${file}`).toBe(false);
    }
  });

  it('records process command lines with their secret values redacted', async () => {
    const procs = CORPUS.filter((c) => c.kind === 'process');
    const rec = new RecordingHost(
      memoryNode({
        processes: procs.map((c) => ({
          name: path.basename(c.args[0] ?? ''),
          args: c.args.map(planted),
        })),
      }),
      { redact: true, collectorVersion: 't' },
    );
    await rec.processes();
    const { manifest } = rec.result();
    const recorded = manifest.processes ?? [];
    expect(recorded.map((p) => p.args)).toEqual(procs.map((c) => c.args.map(redacted)));
  });

  it('records Windows service command lines with their secret values redacted', async () => {
    const svcs = CORPUS.filter((c) => c.kind === 'service');
    const node = new FakeWindowsNode({
      services: svcs.map((c) => ({
        name: c.service,
        state: 'Running' as const,
        ...(c.imagePath !== undefined && { imagePath: planted(c.imagePath) }),
        ...(c.nssmParameters !== undefined && {
          nssm: { application: 'C:\\k\\kubelet.exe', parameters: planted(c.nssmParameters) },
        }),
      })),
    });
    const rec = new RecordingHost(new WindowsHost(node), { redact: true, collectorVersion: 't' });
    await rec.services(svcs.map((c) => c.service));
    const { manifest } = rec.result();
    for (const c of svcs) {
      const launch = manifest.services?.find((s) => s.name === c.service)?.launch;
      if (c.imagePath !== undefined) expect(launch?.imagePath).toBe(redacted(c.imagePath));
      if (c.nssmParameters !== undefined)
        expect(launch?.nssm?.parameters).toBe(redacted(c.nssmParameters));
    }
    const text = JSON.stringify(manifest);
    for (const s of svcs.flatMap((c) => markedTexts(c).flatMap(secretsOf)))
      expect(text.includes(s), s).toBe(false);
  });
});
