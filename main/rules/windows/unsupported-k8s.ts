import type { Rule } from '../types';
import { fail, pass, unknown } from '../types';
import { isRuntime, windowsContainerd } from './shared';
import { compareVersions } from '../versions';

export const windowsContainerdUnsupportedK8s: Rule = {
  id: 'windows.containerd.unsupported-k8s',
  area: 'windows',
  severity: 'warning',
  title: 'containerd on Windows needs Kubernetes 1.20 or later',
  firesWhen: 'the kubelet is older than 1.20 while the runtime is containerd',
  repair: {
    kind: 'guidance',
    text: 'upgrade the node to Kubernetes 1.20 or later, or keep Docker on this release',
  },
  platforms: ['windows'],
  kb: ['docs/knowledge/windows-containerd.md#versions'],
  evaluate(ctx) {
    const rt = windowsContainerd(ctx);
    if (!isRuntime(rt)) return rt;
    const s = ctx.snapshot;
    const k = s.kubelet.known ? s.kubelet.value : undefined;
    const version = k?.version ?? s.versions.kubelet;
    if (!version)
      return s.kubelet.known && !s.kubelet.value
        ? pass()
        : unknown('the kubelet version is not known');
    if (compareVersions(version, '1.20.0') >= 0) return pass();
    return fail({
      severity: 'warning',
      runtime: rt.label,
      title: `kubelet ${version} with containerd: containerd on Windows is stable only from Kubernetes 1.20`,
      summary: `Kubernetes ${version} supports containerd on Windows only as alpha/beta; CNI plugins and kubelet code of that era expect dockershim, which is where netns and endpoint errors come from.`,
      evidence: [
        {
          kind: 'text',
          text: `kubelet ${version}; runtime ${rt.label} ${rt.facts.version ?? ''}`.trim(),
        },
      ],
      repairs: [],
      guidance:
        'Upgrade the node to Kubernetes 1.20 or later (and a CNI release that supports containerd), or keep Docker as the runtime on this release.',
    });
  },
};
