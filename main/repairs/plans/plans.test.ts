import { afterEach, describe, expect, it } from 'vitest';
import { parseToml } from '../../config/toml';
import { lineHunk } from '../../config/toml/testing.testutil';
import { prepareRepair } from '../prepare';
import { buildPlan } from './build';
import { offer, type OfferKind, type OfferParams } from '../../rules/offers';
import { LocalNodeFs } from '../node-fs';
import {
  criDisabledNode,
  makeNodeTree,
  plugins,
  removeTree,
  sample,
  shadowedNode,
  snapshotTree,
  type TreeSpec,
} from '../testing/node-tree';
import { testEnvironment } from '../testing/env';
import type { RepairPreview, WriteStep } from '../../../shared/model/repair';

const roots: string[] = [];
function node(spec: TreeSpec): string {
  const r = makeNodeTree(spec);
  roots.push(r);
  return r;
}
afterEach(() => {
  while (roots.length) removeTree(roots.pop() as string);
});

async function preview(root: string, id: string): Promise<RepairPreview> {
  const p = await prepareRepair(testEnvironment(root), id);
  if (!p.ok) throw new Error(p.reason);
  return p.preview;
}

function onlyWrite(p: RepairPreview): WriteStep {
  const writes = p.plan.steps.filter((s): s is WriteStep => s.kind === 'write');
  expect(writes).toHaveLength(1);
  return writes[0] as WriteStep;
}

const KUBELET_SYSTEMD = {
  'var/lib/kubelet/config.yaml':
    'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\n',
};

describe('containerd plans on the real samples (diff-checked)', () => {
  it('enable CRI: removes "cri" from disabled_plugins and changes exactly that line', async () => {
    const root = node(criDisabledNode());
    const p = await preview(root, 'containerd.cri.disabled:containerd-enable-cri');
    const w = onlyWrite(p);
    const before = sample('containerd.io-default-config.toml');
    expect(lineHunk(before, w.content)).toEqual({
      line: 16,
      removed: ['disabled_plugins = ["cri"]'],
      added: ['disabled_plugins = []'],
    });
    expect(p.diffs[0]?.unified).toBe(
      [
        '--- a/etc/containerd/config.toml',
        '+++ b/etc/containerd/config.toml',
        '@@ -13,7 +13,7 @@',
        ' #   See the License for the specific language governing permissions and',
        ' #   limitations under the License.',
        ' ',
        '-disabled_plugins = ["cri"]',
        '+disabled_plugins = []',
        ' ',
        ' #root = "/var/lib/containerd"',
        ' #state = "/run/containerd"',
        '',
      ].join('\n'),
    );
    expect(p.plan.steps.map((s) => s.kind)).toEqual(['write', 'restart-service']);
    expect(p.services).toEqual([]); // a node disk: nothing runs, nothing restarts
    expect(p.plan.services).toEqual(['containerd']);
    expect(p.risk).toBe('medium');
  });

  it('SystemdCgroup on the 1.x version 2 sample: exactly one line', async () => {
    const root = node({
      'etc/containerd/config.toml': sample('containerd-1.x-cri-config-v2.toml'),
      'etc/cni/net.d/10-flannel.conflist': sample('10-flannel.conflist'),
      ...plugins('opt/cni/bin', ['flannel', 'bridge', 'portmap', 'loopback']),
      ...KUBELET_SYSTEMD,
    });
    const p = await preview(
      root,
      'kubelet.cgroup-driver.mismatch:containerd-set-systemd-cgroup:containerd',
    );
    const hunk = lineHunk(sample('containerd-1.x-cri-config-v2.toml'), onlyWrite(p).content);
    expect(hunk).toEqual({
      line: 63,
      removed: ['        SystemdCgroup = false'],
      added: ['        SystemdCgroup = true'],
    });
    expect(p.risk).toBe('high');
    expect(p.podImpact).toMatch(/Drain the node first/);
  });

  it('SystemdCgroup where the file has no runc table also writes runtime_type (containerd#6964)', async () => {
    const cfg =
      'version = 2\n\n[plugins."io.containerd.grpc.v1.cri".cni]\n  bin_dir = "/opt/cni/bin"\n';
    const root = node({
      'etc/containerd/config.toml': cfg,
      ...KUBELET_SYSTEMD,
      'etc/cni/net.d/10-flannel.conflist': sample('10-flannel.conflist'),
      ...plugins('opt/cni/bin', ['flannel', 'bridge', 'portmap', 'loopback']),
    });
    const w = onlyWrite(
      await preview(
        root,
        'kubelet.cgroup-driver.mismatch:containerd-set-systemd-cgroup:containerd',
      ),
    );
    const doc = parseToml(w.content);
    expect(doc.ok && doc.value).toMatchObject({
      plugins: {
        'io.containerd.grpc.v1.cri': {
          containerd: {
            runtimes: {
              runc: { runtime_type: 'io.containerd.runc.v2', options: { SystemdCgroup: true } },
            },
          },
        },
      },
    });
    expect(w.content.startsWith(cfg)).toBe(true);
  });

  it('bin_dir on the v2 sample: replaced when the other dir has every plugin the configs need', async () => {
    const root = node({
      'etc/containerd/config.toml': sample('containerd-1.x-cri-config-v2.toml'),
      'etc/cni/net.d/10-flannel.conflist': sample('10-flannel.conflist'),
      ...plugins('opt/cni/bin', ['bridge', 'loopback']),
      ...plugins('usr/lib/cni', ['flannel', 'bridge', 'portmap', 'loopback', 'host-local']),
    });
    const p = await preview(
      root,
      'cni.plugin.missing:containerd-add-bin-dir:containerd-10-flannel.conflist',
    );
    expect(lineHunk(sample('containerd-1.x-cri-config-v2.toml'), onlyWrite(p).content)).toEqual({
      line: 67,
      removed: ['    bin_dir = "/opt/cni/bin"'],
      added: ['    bin_dir = "/usr/lib/cni"'],
    });
  });

  it('bin_dir: refuses to switch to a dir that lacks another plugin the configs need', async () => {
    const root = node({
      'etc/containerd/config.toml': sample('containerd-1.x-cri-config-v2.toml'),
      'etc/cni/net.d/10-flannel.conflist': sample('10-flannel.conflist'),
      ...plugins('opt/cni/bin', ['bridge', 'portmap', 'loopback']),
      ...plugins('usr/lib/cni', ['flannel', 'bridge', 'loopback']),
    });
    const r = await prepareRepair(
      testEnvironment(root),
      'cni.plugin.missing:containerd-add-bin-dir:containerd-10-flannel.conflist',
    );
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/lacks portmap/) });
  });

  it('bin_dirs on the 2.x version 3 sample: appended, single quotes kept', async () => {
    const root = node({
      'etc/containerd/config.toml': sample('containerd-2.x-cri-config-v3.toml'),
      'etc/cni/net.d/10-flannel.conflist': sample('10-flannel.conflist'),
      ...plugins('opt/cni/bin', ['bridge', 'portmap', 'loopback']),
      ...plugins('usr/lib/cni', ['flannel']),
    });
    const p = await preview(
      root,
      'cni.plugin.missing:containerd-add-bin-dir:containerd-10-flannel.conflist',
    );
    expect(lineHunk(sample('containerd-2.x-cri-config-v3.toml'), onlyWrite(p).content)).toEqual({
      line: 73,
      removed: ["      bin_dirs = ['/opt/cni/bin']"],
      added: ["      bin_dirs = ['/opt/cni/bin', '/usr/lib/cni']"],
    });
  });

  it('conf_dir: follows the cluster config to /etc/cni/net.mk, and so does a handler with its own cni_conf_dir', async () => {
    const root = node({
      'etc/containerd/config.toml': sample('containerd-1.x-cri-config-v2.toml'),
      'etc/cni/net.d/.keep': '',
      'etc/cni/net.mk/10-flannel.conflist': sample('10-flannel.conflist'),
      ...plugins('opt/cni/bin', ['flannel', 'bridge', 'portmap', 'loopback']),
    });
    const p = await preview(
      root,
      'cni.dir.mismatch:containerd-set-conf-dir:containerd-etc-cni-net.mk',
    );
    const before = sample('containerd-1.x-cri-config-v2.toml').split('\n');
    const after = onlyWrite(p).content.split('\n');
    expect(after).toHaveLength(before.length);
    const changed = before.flatMap((l, i) => (l === after[i] ? [] : [[i + 1, l, after[i]]]));
    expect(changed).toEqual([
      [50, '      cni_conf_dir = "/etc/cni/net.d"', '      cni_conf_dir = "/etc/cni/net.mk"'],
      [68, '    conf_dir = "/etc/cni/net.d"', '    conf_dir = "/etc/cni/net.mk"'],
    ]);
    expect(p.notes[0]).toMatch(/runc set their own cni_conf_dir/);
  });

  it('never edits a k3s-generated config', async () => {
    const root = node({
      'var/lib/rancher/k3s/agent/etc/containerd/config.toml': 'disabled_plugins = ["cri"]\n',
    });
    const r = await prepareRepair(
      testEnvironment(root),
      'containerd.cri.disabled:containerd-enable-cri',
    );
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/generated by k3s/) });
  });
});

describe('CNI conf dir plans', () => {
  it('disables every default that sorts before the cluster config, one rename each', async () => {
    const root = node(shadowedNode());
    const p = await preview(root, 'cni.conf.shadowed-by-default:disable-files:containerd');
    expect(p.plan.steps).toEqual([
      {
        kind: 'rename',
        from: '/etc/cni/net.d/00-podman-bridge.conflist',
        to: '/etc/cni/net.d/00-podman-bridge.conflist.disabled',
        needsElevation: false,
      },
      {
        kind: 'rename',
        from: '/etc/cni/net.d/10-containerd-net.conflist',
        to: '/etc/cni/net.d/10-containerd-net.conflist.disabled',
        needsElevation: false,
      },
    ]);
    expect(p.diffs).toEqual([]);
    expect(p.risk).toBe('low');
    expect(p.podImpact).toMatch(/keep their IPs/);
  });

  it('refuses a rename that would leave the conf dir without a valid config', async () => {
    const root = node(shadowedNode());
    const env = testEnvironment(root);
    const scan = await env.scan();
    const repair = {
      id: 'x',
      rule: 'cni.conf.multiple',
      findingId: 'cni.conf.multiple#containerd',
      offer: offer('disable-files', 't', {
        paths: [
          '/etc/cni/net.d/00-podman-bridge.conflist',
          '/etc/cni/net.d/10-containerd-net.conflist',
          '/etc/cni/net.d/10-flannel.conflist',
        ],
      }),
    };
    const r = await buildPlan(scan.snapshot, repair, new LocalNodeFs(root));
    expect(r).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/without any valid CNI config/),
    });
  });

  it('refuses to rename onto an existing file', async () => {
    const root = node({
      ...shadowedNode(),
      'etc/cni/net.d/10-containerd-net.conflist.disabled': 'old',
    });
    const r = await prepareRepair(
      testEnvironment(root),
      'cni.conf.shadowed-by-default:disable-files:containerd',
    );
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/already exists/) });
  });

  it('re-enables the one disabled candidate of an empty conf dir', async () => {
    const root = node({
      'etc/containerd/config.toml': sample('containerd-1.x-cri-config-v2.toml'),
      'etc/cni/net.d/10-flannel.conflist.mk_disabled': sample('10-flannel.conflist'),
      ...plugins('opt/cni/bin', ['flannel', 'bridge', 'portmap', 'loopback']),
    });
    const p = await preview(root, 'cni.conf.none:rename-file:containerd');
    expect(p.plan.steps).toEqual([
      {
        kind: 'rename',
        from: '/etc/cni/net.d/10-flannel.conflist.mk_disabled',
        to: '/etc/cni/net.d/10-flannel.conflist',
        needsElevation: false,
      },
    ]);
  });
});

describe('CRI-O, crictl and kubelet plans', () => {
  it('CRI-O: sets cni_default_network in its own new drop-in, temp file outside crio.conf.d', async () => {
    const root = node({
      'etc/crio/crio.conf.d/10-crio.conf': `${sample('crio.conf.d-10-crio.conf')}\n[crio.network]\ncni_default_network = "crio"\n`,
      'etc/cni/net.d/10-flannel.conflist': sample('10-flannel.conflist'),
      ...plugins('opt/cni/bin', ['flannel', 'bridge', 'portmap', 'loopback']),
    });
    const p = await preview(root, 'crio.network.default-missing:crio-set-default-network');
    const w = onlyWrite(p);
    expect(w).toMatchObject({
      path: '/etc/crio/crio.conf.d/99-cni-doctor.conf',
      expectedSha256: null,
      tempDir: '/etc/crio',
    });
    const doc = parseToml(w.content);
    expect(doc.ok && doc.value).toEqual({ crio: { network: { cni_default_network: 'cbr0' } } });
    expect(
      p.diffs[0]?.unified.startsWith(
        '--- /dev/null\n+++ b/etc/crio/crio.conf.d/99-cni-doctor.conf\n',
      ),
    ).toBe(true);
  });

  it('crictl: rewrites only the endpoint lines of the sample', async () => {
    const root = node({
      ...criDisabledNode(),
      'etc/containerd/config.toml': sample('containerd-1.x-cri-config-v2.toml'),
      'etc/crictl.yaml': sample('crictl.yaml'),
      'var/lib/kubelet/kubeadm-flags.env':
        'KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///var/run/crio/crio.sock"\n',
    });
    const p = await preview(root, 'cri.crictl.mismatch:write-crictl-config');
    const before = sample('crictl.yaml').split('\n');
    const after = onlyWrite(p).content.split('\n');
    const changed = before
      .map((l, i) => (l === after[i] ? null : [l, after[i]]))
      .filter((x) => x !== null);
    expect(changed).toEqual([
      [
        'runtime-endpoint: unix:///run/containerd/containerd.sock',
        'runtime-endpoint: unix:///var/run/crio/crio.sock',
      ],
      [
        'image-endpoint: unix:///run/containerd/containerd.sock',
        'image-endpoint: unix:///var/run/crio/crio.sock',
      ],
    ]);
    expect(p.risk).toBe('low');
    expect(p.plan.services).toEqual([]);
  });

  it('kubelet: removes a removed flag from its kubeadm-flags.env line and nothing else', async () => {
    const flags =
      '# kubeadm writes this\nKUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///run/containerd/containerd.sock --network-plugin=cni --pod-infra-container-image=registry.k8s.io/pause:3.9"\n';
    const root = node({
      ...criDisabledNode(),
      'etc/containerd/config.toml': sample('containerd-1.x-cri-config-v2.toml'),
      'var/lib/kubelet/kubeadm-flags.env': flags,
    });
    const p = await preview(root, 'kubelet.flags.removed:kubelet-remove-flags');
    expect(lineHunk(flags, onlyWrite(p).content)).toEqual({
      line: 2,
      removed: [
        'KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///run/containerd/containerd.sock --network-plugin=cni --pod-infra-container-image=registry.k8s.io/pause:3.9"',
      ],
      added: [
        'KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///run/containerd/containerd.sock --pod-infra-container-image=registry.k8s.io/pause:3.9"',
      ],
    });
    expect(p.plan.steps.at(-1)).toMatchObject({ kind: 'restart-service', service: 'kubelet' });
  });

  async function planFor<K extends OfferKind>(root: string, kind: K, params: OfferParams[K]) {
    const scan = await testEnvironment(root).scan();
    return buildPlan(
      scan.snapshot,
      {
        id: `t:${kind}`,
        rule: 'test',
        findingId: 'test',
        offer: offer(kind, kind, params),
      },
      new LocalNodeFs(root),
    );
  }

  it('kubelet endpoint: replaces the flag value on its line', async () => {
    const flags =
      'KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///var/run/dockershim.sock --pod-infra-container-image=registry.k8s.io/pause:3.9"\n';
    const root = node({ 'var/lib/kubelet/kubeadm-flags.env': flags });
    const r = await planFor(root, 'kubelet-set-endpoint', {
      endpoint: 'unix:///run/containerd/containerd.sock',
    });
    if (!r.ok) throw new Error(r.reason);
    const w = r.plan.steps[0] as WriteStep;
    expect(w.content).toBe(
      flags.replace('unix:///var/run/dockershim.sock', 'unix:///run/containerd/containerd.sock'),
    );
    expect(r.plan.steps[1]).toMatchObject({ kind: 'restart-service', service: 'kubelet' });
  });

  it('CRI-O plugin_dirs: the drop-in lists every current dir plus the new one', async () => {
    const root = node({
      'etc/crio/crio.conf': sample('crio-network-section.conf'),
      'etc/crio/crio.conf.d/10-crio.conf': sample('crio.conf.d-10-crio.conf'),
    });
    const r = await planFor(root, 'crio-add-plugin-dir', { dir: '/usr/lib/cni' });
    if (!r.ok) throw new Error(r.reason);
    const doc = parseToml((r.plan.steps[0] as WriteStep).content);
    expect(doc.ok && doc.value).toEqual({
      crio: { network: { plugin_dirs: ['/opt/cni/bin', '/usr/libexec/cni', '/usr/lib/cni'] } },
    });
    expect(r.plan.services).toEqual(['crio']);
  });

  it('CRI-O cgroupfs also sets conmon_cgroup = "pod"; a later drop-in that sets it blocks the repair', async () => {
    const root = node({ 'etc/crio/crio.conf.d/10-crio.conf': sample('crio.conf.d-10-crio.conf') });
    const r = await planFor(root, 'crio-set-cgroup-manager', { value: 'cgroupfs' });
    if (!r.ok) throw new Error(r.reason);
    const doc = parseToml((r.plan.steps[0] as WriteStep).content);
    expect(doc.ok && doc.value).toEqual({
      crio: { runtime: { cgroup_manager: 'cgroupfs', conmon_cgroup: 'pod' } },
    });
    expect(r.plan.risk).toBe('high');
    const later = node({
      'etc/crio/crio.conf.d/10-crio.conf': sample('crio.conf.d-10-crio.conf'),
      'etc/crio/crio.conf.d/zz-local.conf': '[crio.runtime]\ncgroup_manager = "systemd"\n',
    });
    expect(await planFor(later, 'crio-set-cgroup-manager', { value: 'cgroupfs' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(
        /zz-local\.conf sets crio\.runtime\.cgroup_manager and is applied after 99-cni-doctor\.conf/,
      ),
    });
  });

  it('a preview changes nothing on the node', async () => {
    const root = node(shadowedNode());
    const before = snapshotTree(root, { mtime: true });
    await preview(root, 'cni.conf.shadowed-by-default:disable-files:containerd');
    expect(snapshotTree(root, { mtime: true })).toEqual(before);
  });
});

describe('repairs that could only fail are refused in the preview (issue 9 item 9)', () => {
  it('a rename whose new name would pass 255 bytes', async () => {
    const long = `00-${'é'.repeat(120)}.conflist`; // 252 bytes; + ".disabled" = 261
    const root = node({
      ...shadowedNode(),
      [`etc/cni/net.d/${long}`]: sample('87-podman-bridge.conflist'),
    });
    const scan = await testEnvironment(root).scan();
    const r = await buildPlan(
      scan.snapshot,
      {
        id: 'x',
        rule: 'cni.conf.multiple',
        findingId: 'cni.conf.multiple#containerd',
        offer: offer('disable-files', 't', { paths: [`/etc/cni/net.d/${long}`] }),
      },
      new LocalNodeFs(root),
    );
    expect(r).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/new name would be 261 bytes, over the 255/),
    });
  });

  it('a TOML edit inside an inline table', async () => {
    const root = node({
      ...shadowedNode(),
      'etc/containerd/config.toml':
        'version = 2\n[plugins."io.containerd.grpc.v1.cri"]\n  cni = { bin_dir = "/opt/cni/bin", conf_dir = "/etc/cni/other" }\n',
      'etc/cni/other/.keep': '',
    });
    const scan = await testEnvironment(root).scan();
    const r = await buildPlan(
      scan.snapshot,
      {
        id: 'x',
        rule: 'cni.dir.mismatch',
        findingId: 'cni.dir.mismatch#containerd',
        offer: offer('containerd-set-conf-dir', 't', { dir: '/etc/cni/net.d' }),
      },
      new LocalNodeFs(root),
    );
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/inline table/) });
  });
});
