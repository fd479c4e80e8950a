import { describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import { containerExecArgs } from './container';
import {
  debugPodName,
  debugPodSpec,
  kubectlCommands,
  KubectlTransport,
  POD_DEADLINE_SECONDS,
} from './kubectl';
import { shQuote, sshArgs } from './ssh';

describe('container exec', () => {
  it('passes the program as an argument vector after the container name', () => {
    expect(
      containerExecArgs({ kind: 'container', engine: 'docker', name: 'kind-control-plane' }, [
        'sh',
        '-c',
        'echo "$x"; rm -rf /',
      ]),
    ).toEqual(['exec', '-i', 'kind-control-plane', 'sh', '-c', 'echo "$x"; rm -rf /']);
  });
});

describe('ssh', () => {
  it('never prompts, keeps the destination after --, and quotes each remote word', () => {
    const args = sshArgs(
      { kind: 'ssh', host: 'node1', user: 'admin', port: 2222 },
      ['sh', '-c', "echo 'a b'; $(id)"],
      {
        configFile: '/tmp/cfg',
      },
    );
    expect(args).toEqual([
      '-T',
      '-o',
      'BatchMode=yes',
      '-o',
      'ConnectTimeout=15',
      '-o',
      'ServerAliveInterval=15',
      '-F',
      '/tmp/cfg',
      // No control socket of the user's: only the master prepare() starts (none here).
      '-o',
      'ControlPath=none',
      '-o',
      'ControlMaster=no',
      '-p',
      '2222',
      '-l',
      'admin',
      '--',
      'node1',
      `sh -c 'echo '\\''a b'\\''; $(id)'`,
    ]);
    expect(sshArgs({ kind: 'ssh', host: 'n' }, ['true'], {}, '/tmp/x/master')).toContain(
      'ControlPath=/tmp/x/master',
    );
  });

  it('quotes what a remote shell would expand', () => {
    expect(shQuote('/etc/cni/net.d')).toBe('/etc/cni/net.d');
    expect(shQuote('a b')).toBe("'a b'");
    expect(shQuote("it's")).toBe("'it'\\''s'");
    expect(shQuote('$(reboot)')).toBe("'$(reboot)'");
    expect(() => shQuote('a\0b')).toThrow();
  });
});

describe('kubectl debug pod (command lines; the real-cluster run is in docs/knowledge/cluster.md)', () => {
  const t = { kind: 'kubectl' as const, context: 'kind-kind', node: 'kind-worker' };

  it('builds a privileged host-root pod pinned to the node, with a deadline', () => {
    const name = debugPodName('kind-worker', 'abc123');
    expect(name).toBe('cni-doctor-kind-worker-abc123');
    expect(debugPodSpec(t, name, { namespace: 'debug' }).metadata.annotations).toEqual({
      'cni-doctor/client-host': hostname(),
      'cni-doctor/client-pid': String(process.pid),
    });
    const annotations = { 'cni-doctor/client-host': 'h', 'cni-doctor/client-pid': '1' };
    expect(debugPodSpec(t, name, { namespace: 'debug', annotations })).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'debug',
        labels: {
          'app.kubernetes.io/name': 'cni-doctor',
          'app.kubernetes.io/component': 'node-debug',
        },
        annotations,
      },
      spec: {
        nodeName: 'kind-worker',
        hostPID: true,
        hostNetwork: true,
        hostIPC: false,
        restartPolicy: 'Never',
        activeDeadlineSeconds: POD_DEADLINE_SECONDS,
        terminationGracePeriodSeconds: 0,
        automountServiceAccountToken: false,
        enableServiceLinks: false,
        tolerations: [{ operator: 'Exists' }],
        containers: [
          {
            name: 'doctor',
            image: 'busybox:1.36',
            imagePullPolicy: 'IfNotPresent',
            command: ['sleep', String(POD_DEADLINE_SECONDS)],
            securityContext: { privileged: true },
            volumeMounts: [{ name: 'host-root', mountPath: '/host' }],
          },
        ],
        volumes: [{ name: 'host-root', hostPath: { path: '/', type: 'Directory' } }],
      },
    });
  });

  it('produces exactly these kubectl command lines', () => {
    const c = kubectlCommands(t, 'cni-doctor-kind-worker-abc123', { namespace: 'debug' });
    const base = ['--context', 'kind-kind', '--namespace', 'debug'];
    expect(c.create).toEqual([...base, 'create', '-f', '-', '-o', 'name']);
    expect(c.wait).toEqual([
      ...base,
      'wait',
      '--for=condition=Ready',
      'pod/cni-doctor-kind-worker-abc123',
      '--timeout=120s',
    ]);
    expect(c.exec(['sh', '-c', 'x'])).toEqual([
      ...base,
      'exec',
      '-i',
      'cni-doctor-kind-worker-abc123',
      '-c',
      'doctor',
      '--',
      'chroot',
      '/host',
      // The node's own shell by its path: a busybox chroot would run its own `sh` applet.
      '/bin/sh',
      '-c',
      'exec "$@"',
      'sh',
      'sh',
      '-c',
      'x',
    ]);
    expect(c.delete).toEqual([
      ...base,
      'delete',
      'pod',
      'cni-doctor-kind-worker-abc123',
      '--ignore-not-found',
      '--wait=false',
    ]);
  });

  it('refuses a namespace or image that could read as something else', () => {
    expect(() => new KubectlTransport(t, { namespace: '--all' })).toThrow(/namespace/);
    expect(() => new KubectlTransport(t, { image: 'x y' })).toThrow(/image/);
  });

  it('shows the pod spec, creates, waits, and deletes the pod even when the program fails', async () => {
    // A stand-in kubectl that records its argv and stdin: the cluster side is not verified here.
    const { mkdtempSync, writeFileSync, readFileSync, chmodSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'cnd-kubectl-'));
    const log = join(dir, 'log');
    const fake = join(dir, 'kubectl');
    writeFileSync(
      fake,
      `#!/bin/sh\nprintf '%s\\n' "ARGS $*" >> ${log}\nif [ "$5" = create ]; then cat >> ${log}; echo >> ${log}; echo pod/x; fi\nif [ "$5" = exec ]; then exit 7; fi\nexit 0\n`,
    );
    chmodSync(fake, 0o755);
    const shown: string[] = [];
    const k = new KubectlTransport(t, {
      client: fake,
      suffix: 'abc123',
      sweep: false,
      onPodSpec: (s) => shown.push(s),
    });
    await k.prepare();
    const p = k.spawn(['sh', '-c', 'true']);
    p.stdin.end();
    expect((await p.exit).code).toBe(7);
    await k.dispose();
    const text = readFileSync(log, 'utf8');
    expect(shown).toHaveLength(1);
    expect(JSON.parse(shown[0] as string).spec.hostPID).toBe(true);
    const lines = text.split('\n').filter((l) => l.startsWith('ARGS '));
    expect(lines.map((l) => l.split(' ')[5])).toEqual(['create', 'wait', 'exec', 'delete']);
    expect(text).toContain('"nodeName": "kind-worker"');
  });

  it('carries the repair file operations as `kubectl exec … -- chroot /host sh -c …` words', async () => {
    // A stand-in kubectl whose "pod" is this machine: after `-- chroot /host` it runs the words
    // as given. What a real debug pod does with them is not verified here (no API server).
    const { mkdtempSync, writeFileSync, readFileSync, chmodSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { NodeFiles } = await import('../node-files');
    const dir = mkdtempSync(join(tmpdir(), 'cnd-kubectl-files-'));
    const fake = join(dir, 'kubectl');
    writeFileSync(
      fake,
      `#!/bin/sh\nif [ "$5" = create ]; then cat >/dev/null; echo pod/x; exit 0; fi\n[ "$5" = exec ] || exit 0\nwhile [ "$1" != -- ]; do shift; done\nshift\n[ "$1 $2" = "chroot /host" ] || exit 99\nshift 2\nexec "$@"\n`,
    );
    chmodSync(fake, 0o755);
    const k = new KubectlTransport(t, { client: fake, suffix: 'abc123', sweep: false });
    const files = new NodeFiles(k);
    try {
      await files.replace(join(dir, 'conf'), 'bytes\n', {
        tempDir: dir,
        tempName: '.cni-doctor-0123456789abcdef.tmp',
        mode: 0o600,
      });
      expect(readFileSync(join(dir, 'conf'), 'utf8')).toBe('bytes\n');
      expect((await files.read(join(dir, 'conf'), true))?.data.toString()).toBe('bytes\n');
    } finally {
      await k.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
