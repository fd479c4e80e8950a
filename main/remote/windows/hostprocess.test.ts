/**
 * The HostProcess path of kubectl:NODE on a Windows node, as far as it can be checked without a
 * cluster: the pod spec, every kubectl command line, and that the session really starts
 * `kubectl … exec -i POD -c doctor -- powershell.exe -NoLogo … -Command -` (a stand-in kubectl
 * records its arguments and answers as the shell would). NOT verified against a Windows node.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  HostProcessRunner,
  hostProcessCommands,
  hostProcessPodSpec,
  HOSTPROCESS_IMAGE,
} from './hostprocess';

const target = {
  kind: 'kubectl' as const,
  node: 'win-node-1',
  context: 'arn:aws:eks:eu-west-1:1:cluster/x',
};
const dir = mkdtempSync(join(tmpdir(), 'cni-doctor-hostprocess-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('HostProcess pod for kubectl:NODE on Windows', () => {
  it('the pod: HostProcess as SYSTEM, host network, pinned to the node, deadline, tolerates taints', () => {
    const pod = hostProcessPodSpec(target, 'cni-doctor-win-node-1-abc', { namespace: 'ops' });
    expect(pod.metadata).toMatchObject({ name: 'cni-doctor-win-node-1-abc', namespace: 'ops' });
    expect(pod.spec.securityContext.windowsOptions).toEqual({
      hostProcess: true,
      runAsUserName: 'NT AUTHORITY\\SYSTEM',
    });
    expect(pod.spec.hostNetwork).toBe(true);
    expect(pod.spec.nodeName).toBe('win-node-1');
    expect(pod.spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'windows' });
    expect(pod.spec.activeDeadlineSeconds).toBeGreaterThan(0);
    expect(pod.spec.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(pod.spec.containers[0]?.image).toBe(HOSTPROCESS_IMAGE);
    expect(pod.spec.containers[0]?.command[0]).toBe('powershell.exe');
  });

  it('the kubectl command lines: context and namespace first, the pod by name, argument vectors only', () => {
    const c = hostProcessCommands(target, 'p1', { namespace: 'ops' });
    const ctx = ['--context', 'arn:aws:eks:eu-west-1:1:cluster/x', '--namespace', 'ops'];
    expect(c.nodeOs).toEqual([
      '--context',
      'arn:aws:eks:eu-west-1:1:cluster/x',
      'get',
      'node',
      'win-node-1',
      '-o',
      'jsonpath={.status.nodeInfo.operatingSystem}',
    ]);
    expect(c.create).toEqual([...ctx, 'create', '-f', '-', '-o', 'name']);
    expect(c.wait).toEqual([...ctx, 'wait', '--for=condition=Ready', 'pod/p1', '--timeout=300s']);
    expect(c.shell).toEqual([...ctx, 'exec', '-i', 'p1', '-c', 'doctor', '--', 'powershell.exe']);
    expect(c.delete).toEqual([...ctx, 'delete', 'pod', 'p1', '--ignore-not-found', '--wait=false']);
  });

  it('creates the pod, waits, runs scripts in powershell.exe through kubectl exec, deletes the pod', async () => {
    // A stand-in kubectl: logs its argv; for `exec` it becomes the shell (the fake pwsh).
    const log = join(dir, 'kubectl.log');
    const fakePwsh = fileURLToPath(
      new URL('../../host/windows/testing/fake-pwsh.mjs', import.meta.url),
    );
    const kubectl = join(dir, 'kubectl');
    writeFileSync(
      kubectl,
      [
        '#!/bin/sh',
        `printf '%s\\n' "$*" >> '${log}'`,
        'case " $* " in',
        `  *" exec "*) exec node '${fakePwsh}' ;;`,
        '  *" create "*) cat > /dev/null; echo pod/created ;;',
        'esac',
        'exit 0',
        '',
      ].join('\n'),
    );
    chmodSync(kubectl, 0o755);
    let spec = '';
    const runner = new HostProcessRunner(target, {
      client: kubectl,
      suffix: 'abc123',
      onPodSpec: (s) => (spec = s),
    });
    const r = await runner.run("Write-Output 'hello from the node'", { deadlineMs: 30_000 });
    await runner.dispose();
    expect(r.ok && r.stdout.trim()).toBe('hello from the node');
    expect(JSON.parse(spec).spec.securityContext.windowsOptions.hostProcess).toBe(true);
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls[0]).toMatch(/ create -f - -o name$/);
    expect(calls[1]).toContain('wait --for=condition=Ready pod/cni-doctor-win-node-1-abc123');
    // First the node's language mode (review B5), in a one-command shell of its own.
    expect(calls[2]).toMatch(
      / exec -i cni-doctor-win-node-1-abc123 -c doctor -- powershell\.exe -NoLogo -NoProfile -NonInteractive -Command 'cni-doctor-language=' \+ \$ExecutionContext\.SessionState\.LanguageMode$/,
    );
    expect(calls[3]).toMatch(
      / exec -i cni-doctor-win-node-1-abc123 -c doctor -- powershell\.exe -NoLogo -NoProfile -NonInteractive -NoExit -Command -$/,
    );
    expect(calls[4]).toMatch(
      / delete pod cni-doctor-win-node-1-abc123 --ignore-not-found --wait=false$/,
    );
  }, 60_000);
});
