// Start from the user's error (issue 22, point 6): a pasted event or log line lands on the finding
// that explains it, or the answer says which signature matched and that no finding explains it.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/model/report';
import { BundleHost } from '../host/bundle-host';
import { explainText } from './explain';
import { scanHost } from './scan';

const DEMOS = join(__dirname, '../../assets/demo');
let windows: Report;
let minikube: Report;
beforeAll(async () => {
  windows = (await scanHost(await BundleHost.open(join(DEMOS, 'windows-antrea-containerd'))))
    .report;
  minikube = (await scanHost(await BundleHost.open(join(DEMOS, 'minikube-conflict')))).report;
});

describe('explainText', () => {
  it('ties a pasted FailedCreatePodSandBox event to the finding that explains it', () => {
    const event = String.raw`Warning  FailedCreatePodSandBox  12s  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "9f1c": Error while dialing open \\.\pipe\cnisock: The system cannot find the file specified.`;
    const r = explainText(event, windows);
    expect(r.matches[0]).toMatchObject({
      verdict: 'explained',
      rule: 'windows.cnisock.missing',
      findingId: 'windows.cnisock.missing',
      signature: { id: 'windows.antrea.cnisock-missing' },
    });
  });

  it('reads a line as kubectl -o json quotes it (escaped quotes and backslashes)', () => {
    const json = String.raw`"message": "Failed to create pod sandbox: ... open \\\\.\\pipe\\cnisock: The system cannot find the file specified."`;
    expect(explainText(json, windows).matches[0]?.findingId).toBe('windows.cnisock.missing');
  });

  it('says which signature matched when no finding of this node explains the line', () => {
    const r = explainText(
      'cni config load failed: no network config found in /etc/cni/net.d: cni plugin not initialized',
      minikube,
    );
    expect(r.matches).toContainEqual(
      expect.objectContaining({
        verdict: 'unexplained',
        rule: 'cni.conf.none',
        signature: expect.objectContaining({ id: 'linux.containerd.no-network-config' }),
      }),
    );
    expect(r.matches.find((m) => m.verdict === 'unexplained')?.findingId).toBeUndefined();
  });

  it("answers a generic sandbox failure with the node's most likely cause", () => {
    const r = explainText(
      'failed to setup network for sandbox "abc": plugin type="bridge" failed (add): something odd',
      minikube,
    );
    expect(r.matches).toEqual([
      expect.objectContaining({
        verdict: 'generic',
        rule: 'log.sandbox.network-setup-failed',
        findingId: minikube.summary?.topFindingId,
      }),
    ]);
  });

  it('matches nothing in text no signature knows', () => {
    expect(explainText('hello\n\n  world  ', minikube)).toEqual({ matches: [], lines: 2 });
  });
});
