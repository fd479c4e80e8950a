// `cni-doctor explain "TEXT"` (issue 22, point 6): the pasted event lands on the finding that
// explains it, or the answer names the signature and says no finding explains it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../main';
import { captureIo } from '../../../fixtures/capture-io';

const DEMOS = join(__dirname, '../../../assets/demo');
const EVENT = String.raw`Warning  FailedCreatePodSandBox  12s  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "9f1c": Error while dialing open \\.\pipe\cnisock: The system cannot find the file specified.`;

describe('cni-doctor explain', () => {
  it('names the finding that explains a pasted FailedCreatePodSandBox event (exit 0)', async () => {
    const io = captureIo();
    const code = await main(
      ['explain', '--bundle', join(DEMOS, 'windows-antrea-containerd'), EVENT],
      io,
    );
    const text = io.stdout.join('\n');
    expect(code).toBe(0);
    expect(text).toContain('Matched windows.antrea.cnisock-missing');
    expect(text).toContain('Explained by the finding windows.cnisock.missing on this node');
    expect(text).toContain('[windows.cnisock.missing]');
  });

  it('says which signature matched and that no finding explains it (exit 3)', async () => {
    const io = captureIo();
    const code = await main(
      [
        'explain',
        '--bundle',
        join(DEMOS, 'minikube-conflict'),
        '--json',
        'no network config found in /etc/cni/net.d: cni plugin not initialized',
      ],
      io,
    );
    expect(code).toBe(3);
    expect(JSON.parse(io.stdout.join('\n'))).toMatchObject({
      matches: [
        {
          verdict: 'unexplained',
          rule: 'cni.conf.none',
          signature: { id: 'linux.containerd.no-network-config' },
        },
      ],
    });
  });

  it('wraps its text to the terminal width', async () => {
    const io = { ...captureIo(), columns: 60 };
    await main(['explain', '--bundle', join(DEMOS, 'windows-antrea-containerd'), EVENT], io);
    const long = io.stdout
      .join('\n')
      .split('\n')
      // Evidence (│) and the fix command are quoted whole, to be copied.
      .filter((l) => !l.includes('│') && !l.includes('cni-doctor fix') && l.length > 60);
    expect(long).toEqual([]);
  });
});
