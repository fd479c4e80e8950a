import { describe, expect, it } from 'vitest';
import { daemonSetManifests } from './daemonset-manifests';
import { toYaml } from './yaml';

type Doc = { kind: string; metadata: { name: string }; [k: string]: unknown };

describe('the DaemonSet manifests', () => {
  const docs = daemonSetManifests({ image: 'reg.example/cni-doctor:1', period: 120 }) as Doc[];
  const byKind = (k: string) => docs.filter((d) => d.kind === k);

  it('grant only patch nodes/status and create events', () => {
    expect((byKind('ClusterRole')[0] as unknown as { rules: unknown }).rules).toEqual([
      { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create'] },
    ]);
  });

  it('run the Linux reporter privileged with the node root at /host, and a HostProcess variant', () => {
    const [linux, windows] = byKind('DaemonSet') as unknown as {
      spec: { template: { spec: Record<string, unknown> } };
    }[];
    const l = linux?.spec.template.spec as {
      hostPID: boolean;
      containers: { args: string[]; securityContext: unknown; env: unknown[] }[];
      volumes: unknown[];
    };
    expect(l.hostPID).toBe(true);
    expect(l.containers[0]?.args).toEqual([
      'node-report',
      '--host-root',
      '/host',
      '--period',
      '120',
    ]);
    expect(l.containers[0]?.securityContext).toEqual({ privileged: true });
    expect(l.volumes).toEqual([{ name: 'host-root', hostPath: { path: '/', type: 'Directory' } }]);
    const w = windows?.spec.template.spec as { securityContext: unknown; hostNetwork: boolean };
    expect(w.securityContext).toEqual({
      windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' },
    });
    expect(w.hostNetwork).toBe(true);
  });

  it('print as YAML that reads back as the same objects', async () => {
    // A tiny YAML reader is not in the dependencies; kubectl parsed this output in the lab
    // (docs/daemonset.md). Here: every value is quoted JSON and the structure is indented.
    const y = toYaml(docs as never);
    expect(y.split('\n---\n')).toHaveLength(6);
    expect(y).toContain('kind: "DaemonSet"');
    expect(y).toContain('      - "node-report"');
    expect(y).toContain('pod-security.kubernetes.io/enforce: "privileged"');
  });
});
