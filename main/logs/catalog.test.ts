import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { allSignatures, signatureById, signaturesFor } from './catalog';
import { linuxSignatures } from './signatures-linux';
import { windowsSignatures } from './signatures-windows';

// Rule ids from docs/rules.md that log lines may attach to.
const RULE_IDS = new Set([
  'cni.conf.none',
  'cni.conf.invalid',
  'cni.conf.multiple',
  'cni.conf.shadowed-by-default',
  'cni.plugin.missing',
  'cni.dir.mismatch',
  'cni.version.unsupported',
  'containerd.cri.disabled',
  'containerd.config.invalid',
  'containerd.service.stopped',
  'containerd.config.wrong-schema',
  'crio.network.default-missing',
  'cri.socket.multiple',
  'cri.endpoint.missing',
  'cri.endpoint.unreachable',
  'cri.crictl.mismatch',
  'cri.network.not-ready',
  'kubelet.flags.removed',
  'kubelet.cgroup-driver.mismatch',
  'hns.network.missing',
  'hns.endpoint.stale',
  'windows.cnisock.missing',
  'windows.netns.unsupported',
  'windows.containerd.unsupported-k8s',
]);

/** More real variants seen upstream, beyond each signature's `example`. */
const MORE_EXAMPLES: Record<string, string[]> = {
  'linux.crio.no-cni-config': [
    'No CNI configuration file in /etc/cni/net.d/. Has your network provider started?',
  ],
  'linux.kubeadm.multiple-cri-endpoints': [
    "found multiple CRI endpoints on the host. Please define which one do you wish to use by setting the 'criSocket' field in the kubeadm configuration file: unix:///var/run/containerd/containerd.sock, unix:///var/run/cri-dockerd.sock",
    'Found multiple CRI sockets, please use --cri-socket to select one: /var/run/dockershim.sock, /var/run/crio/crio.sock',
  ],
  'linux.kubelet.dockershim-flag': [
    'Error: failed to parse kubelet flag: unknown flag: --cni-conf-dir',
  ],
  'linux.cni.plugin-not-found': [
    '[failed to find plugin "flannel" in path [/opt/cni/bin] failed to find plugin "portmap" in path [/opt/cni/bin]]',
    'plugin type="flannel" failed (add): failed to find plugin "flannel" in path [/opt/cni/bin]',
    // klog structured form: the quotes arrive escaped.
    'E1202 09:49:01.1 1234 log.go:32] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"abc\\": plugin type=\\"flannel\\" failed (add): failed to find plugin \\"flannel\\" in path [/opt/cni/bin]"',
  ],
  'linux.containerd.invalid-plugin-uri': [
    'invalid disabled plugin URI "cri" expect io.containerd.x.vx',
  ],
  'linux.cri.socket-missing': [
    'validate service connection: validate CRI v1 runtime API for endpoint "unix:///var/run/dockershim.sock": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /var/run/dockershim.sock: connect: no such file or directory"',
  ],
  'linux.cni.teardown-not-initialized': [
    'failed to destroy network for container abc: cni config uninitialized',
  ],
  'linux.flannel.cni0-address': [
    '"cni-podman0" already has an IP address different from 10.244.0.1/16',
  ],
  'linux.cni.incompatible-versions': [
    'incompatible CNI versions: config is "1.0.0", plugin supports ["0.1.0" "0.2.0"]',
  ],
  'windows.antrea.cnisock-missing': [
    // klog structured form doubles backslashes.
    String.raw`E1202 "Failed to dial" err="transport: Error while dialing: open \\\\.\\pipe\\cnisock: The system cannot find the file specified."`,
  ],
  'windows.flannel.subnet-env-missing': [
    String.raw`open C:\run\flannel\subnet.env: The system cannot find the file specified.`,
  ],
};

/** Ordinary lines (some deliberately close to a signature) that must match nothing. */
const BENIGN = [
  'Dec 02 09:49:01 node1 kubelet[1234]: I1202 09:49:01.123456    1234 kubelet.go:2345] "SyncLoop (PLEG): event for pod" pod="kube-system/coredns-5d78c9869d-abcde"',
  'time="2024-12-02T09:49:01Z" level=info msg="StartContainer for \\"4f3e2d1c\\" returns successfully"',
  'time="2024-12-02T09:49:03Z" level=info msg="RunPodSandbox for &PodSandboxMetadata{Name:web,Uid:1a2b,Namespace:default,Attempt:0,} returns sandbox id \\"9a8b\\""',
  'level=info msg="loading plugin \\"io.containerd.grpc.v1.cri\\"..." type=io.containerd.grpc.v1',
  'Found CNI network crio (type=bridge) at /etc/cni/net.d/11-crio-ipv4-bridge.conflist',
  'Updated default CNI network name to crio',
  'NetworkReady=true reason: message:',
  'lastCNILoadStatus: OK',
  '"Flag --container-runtime-endpoint has been deprecated, This parameter should be set via the config file specified by the Kubelet\'s --config flag."',
  'kubelet flags: --container-runtime-endpoint=unix:///run/containerd/containerd.sock --cgroup-driver=systemd',
  'dial unix /var/run/cilium/cilium.sock: connect: no such file or directory',
  'Successfully pulled image "registry.k8s.io/pause:3.10" in 1.2s',
  'No cni config template is specified, wait for other system components to drop the config.',
  'Get-HnsNetwork | ? Name -eq "antrea-hnsnetwork"',
  'Started containerd container runtime.',
  'failed to find plugin',
  'plugin type="calico" name="k8s-pod-network" succeeded (add)',
];

describe('signature catalog', () => {
  it('has enough signatures per platform', () => {
    expect(linuxSignatures.length).toBeGreaterThanOrEqual(30);
    expect(windowsSignatures.length).toBeGreaterThanOrEqual(18);
    expect(allSignatures.length).toBe(linuxSignatures.length + windowsSignatures.length);
  });

  it('has unique, well-formed ids and platforms that match their file', () => {
    const ids = allSignatures.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of linuxSignatures) expect([s.id, s.platform]).toEqual([s.id, 'linux']);
    for (const s of windowsSignatures) expect([s.id, s.platform]).toEqual([s.id, 'windows']);
    for (const id of ids) expect(id).toMatch(/^(linux|windows|any)\.[a-z0-9-]+\.[a-z0-9-]+$/);
  });

  it('gives every signature exactly one of attachesTo / topic, with known targets', () => {
    for (const s of allSignatures) {
      expect([s.id, (s.attachesTo === undefined) !== (s.topic === undefined)]).toEqual([
        s.id,
        true,
      ]);
      if (s.attachesTo !== undefined) {
        expect([s.id, RULE_IDS.has(s.attachesTo)]).toEqual([s.id, true]);
        expect([s.id, s.severity]).toEqual([s.id, undefined]);
      }
      if (s.topic !== undefined)
        expect([s.id, s.topic]).toEqual([
          s.id,
          expect.stringMatching(/^log\.[a-z0-9-]+\.[a-z0-9-]+$/),
        ]);
    }
  });

  it('has the text a finding needs and cites where its facts come from', () => {
    for (const s of allSignatures) {
      for (const field of [s.title, s.explanation, s.fix])
        expect([s.id, field.trim().length > 10]).toEqual([s.id, true]);
      expect([s.id, s.title.includes('\n')]).toEqual([s.id, false]);
      expect([s.id, s.kb.length > 0]).toEqual([s.id, true]);
      // A Linux line is explained by Linux facts (docs/knowledge/README.md lists the pages).
      if (s.platform === 'linux')
        expect([
          s.id,
          s.kb.filter((r) => /knowledge\/(windows|log-signatures-windows)/.test(r)),
        ]).toEqual([s.id, []]);
    }
  });

  it('covers the Windows cases the rules need', () => {
    const byRule = (rule: string) => windowsSignatures.filter((s) => s.attachesTo === rule);
    expect(
      byRule('windows.netns.unsupported').some((s) =>
        new RegExp(s.pattern).test('unexpected netNS'),
      ),
    ).toBe(true);
    expect(byRule('windows.cnisock.missing').length).toBeGreaterThan(0);
    expect(byRule('hns.network.missing').length).toBeGreaterThan(0);
  });

  it('uses only patterns portable between JS and POSIX ERE', () => {
    for (const s of allSignatures) {
      expect(() => new RegExp(s.pattern)).not.toThrow();
      // Perl classes, lookarounds, lazy quantifiers, GNU buffer anchors, word boundaries.
      expect([s.id, /\\[dDsSwWbB'`]|\(\?|[*+?}]\?/.test(s.pattern)]).toEqual([s.id, false]);
      expect([s.id, s.literal.length >= 8]).toEqual([s.id, true]);
    }
  });

  it('matches every real example (and variant) with the pattern, and each contains the literal', () => {
    for (const s of allSignatures) {
      const examples = [
        ...(s.example === undefined ? [] : [s.example]),
        ...(MORE_EXAMPLES[s.id] ?? []),
      ];
      expect([s.id, examples.length > 0]).toEqual([s.id, true]);
      for (const line of examples) {
        expect([s.id, line, new RegExp(s.pattern, 's').test(line)]).toEqual([s.id, line, true]);
        expect([s.id, line, line.includes(s.literal)]).toEqual([s.id, line, true]);
      }
    }
    for (const id of Object.keys(MORE_EXAMPLES)) expect(signatureById(id)).toBeDefined();
  });

  it('matches none of a set of benign lines', () => {
    for (const line of BENIGN) {
      const hits = allSignatures
        .filter((s) => new RegExp(s.pattern, 's').test(line))
        .map((s) => s.id);
      expect([line, hits]).toEqual([line, []]);
    }
  });

  it('a flag the kubelet does not know is only the generic unknown-flag line, not a removed flag', () => {
    // Close to --container-runtime (removed in 1.27), but a typo: the kubelet still exits on it.
    const line = 'failed to parse kubelet flag: unknown flag: --container-runtime-endpoint-typo';
    const hits = allSignatures
      .filter((s) => new RegExp(s.pattern, 's').test(line))
      .map((s) => s.id);
    expect(hits).toEqual(['windows.kubelet.unknown-flag']);
    const removed =
      'E0503 run.go:74] "command failed" err="failed to parse kubelet flag: unknown flag: --network-plugin"';
    expect(
      allSignatures.filter((s) => new RegExp(s.pattern, 's').test(removed)).map((s) => s.id),
    ).toEqual([
      'linux.kubelet.dockershim-flag',
      'windows.kubelet.removed-flag',
      'windows.kubelet.unknown-flag',
    ]);
  });

  it('splits by OS', () => {
    expect(signaturesFor('linux').every((s) => s.platform !== 'windows')).toBe(true);
    expect(signaturesFor('windows').every((s) => s.platform !== 'linux')).toBe(true);
    expect(signaturesFor('linux').length + signaturesFor('windows').length).toBe(
      allSignatures.length,
    );
  });
});

const grepAvailable = spawnSync('grep', ['--version'], { encoding: 'utf8' }).status === 0;

describe.skipIf(!grepAvailable)('patterns under grep -E', () => {
  it('accepts every pattern and matches its example, without warnings', () => {
    for (const s of allSignatures) {
      const input = [s.example ?? '', ...(MORE_EXAMPLES[s.id] ?? [])].join('\n') + '\n';
      const res = spawnSync('grep', ['-E', '-c', '-e', s.pattern], {
        input,
        encoding: 'utf8',
        env: { ...process.env, LC_ALL: 'C' },
      });
      expect([s.id, res.status, res.stderr]).toEqual([s.id, 0, '']);
      expect([s.id, Number(res.stdout.trim())]).toEqual([s.id, input.split('\n').length - 1]);
    }
  });

  it('agrees with JS on the benign lines', () => {
    const res = spawnSync(
      'grep',
      ['-E', '-c', ...allSignatures.flatMap((s) => ['-e', s.pattern])],
      {
        input: BENIGN.join('\n') + '\n',
        encoding: 'utf8',
        env: { ...process.env, LC_ALL: 'C' },
      },
    );
    expect(res.stderr).toBe('');
    expect(res.stdout.trim()).toBe('0');
  });
});
