/**
 * The manifests `cni-doctor daemonset --print` writes: the scan on every node, on a schedule,
 * reporting like node-problem-detector (a CNIConfigProblem node condition and Events). A
 * namespace labelled for privileged pods, a service account, the least RBAC the reporter needs
 * (patch nodes/status, create events), a Linux privileged DaemonSet (host PID and network, the
 * node's `/` at /host: the scan chroots into it) and a Windows HostProcess DaemonSet (the scan
 * runs on the host as SYSTEM; kubernetes.io "Create a Windows HostProcess Pod").
 *
 * The image must hold `node` and cni-doctor's built CLI (dist/cli.cjs): docs/daemonset.md.
 * Verified on a real single-node Kubernetes v1.32 (Linux variant only).
 */
import type { Yamlable } from './yaml';

export interface DaemonSetOptions {
  image: string;
  windowsImage?: string;
  namespace?: string;
  /** Seconds between scans (default 60). */
  period?: number;
}

export const DEFAULT_NAMESPACE = 'cni-doctor';
export const DEFAULT_PERIOD_S = 60;
const NAME = 'cni-doctor-reporter';

const labels = (os: string) => ({
  'app.kubernetes.io/name': 'cni-doctor',
  'app.kubernetes.io/component': 'node-reporter',
  'kubernetes.io/os': os,
});

function nodeNameEnv(): Yamlable {
  return [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }];
}

export function daemonSetManifests(o: DaemonSetOptions): Yamlable[] {
  const ns = o.namespace ?? DEFAULT_NAMESPACE;
  const period = String(o.period ?? DEFAULT_PERIOD_S);
  const common = {
    serviceAccountName: NAME,
    // A node whose network is broken is tainted: the reporter must run there most of all.
    tolerations: [{ operator: 'Exists' }],
    priorityClassName: 'system-node-critical',
    terminationGracePeriodSeconds: 5,
  };
  const linux: Yamlable = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: NAME, namespace: ns, labels: labels('linux') },
    spec: {
      selector: { matchLabels: labels('linux') },
      updateStrategy: { type: 'RollingUpdate' },
      template: {
        metadata: { labels: labels('linux') },
        spec: {
          ...common,
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          hostPID: true,
          hostNetwork: true,
          dnsPolicy: 'ClusterFirstWithHostNet',
          containers: [
            {
              name: 'reporter',
              image: o.image,
              imagePullPolicy: 'IfNotPresent',
              command: ['node', '/opt/cni-doctor/dist/cli.cjs'],
              args: ['node-report', '--host-root', '/host', '--period', period],
              env: nodeNameEnv(),
              securityContext: { privileged: true },
              resources: {
                requests: { cpu: '10m', memory: '64Mi' },
                limits: { memory: '256Mi' },
              },
              volumeMounts: [{ name: 'host-root', mountPath: '/host' }],
            },
          ],
          volumes: [{ name: 'host-root', hostPath: { path: '/', type: 'Directory' } }],
        },
      },
    },
  };
  const windows: Yamlable = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: `${NAME}-windows`, namespace: ns, labels: labels('windows') },
    spec: {
      selector: { matchLabels: labels('windows') },
      template: {
        metadata: { labels: labels('windows') },
        spec: {
          ...common,
          nodeSelector: { 'kubernetes.io/os': 'windows' },
          hostNetwork: true,
          securityContext: {
            windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' },
          },
          containers: [
            {
              name: 'reporter',
              image: o.windowsImage ?? o.image,
              imagePullPolicy: 'IfNotPresent',
              // HostProcess: the image's files are under %CONTAINER_SANDBOX_MOUNT_POINT%.
              command: [
                'cmd.exe',
                '/c',
                `%CONTAINER_SANDBOX_MOUNT_POINT%\\cni-doctor\\node.exe %CONTAINER_SANDBOX_MOUNT_POINT%\\cni-doctor\\dist\\cli.cjs node-report --period ${period}`,
              ],
              env: nodeNameEnv(),
            },
          ],
        },
      },
    },
  };
  return [
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: ns,
        // The Linux pod is privileged and the Windows one HostProcess: Pod Security must allow it.
        labels: { 'pod-security.kubernetes.io/enforce': 'privileged' },
      },
    },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: NAME, namespace: ns } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: NAME },
      rules: [
        { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
        { apiGroups: [''], resources: ['events'], verbs: ['create'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: NAME },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: NAME },
      subjects: [{ kind: 'ServiceAccount', name: NAME, namespace: ns }],
    },
    linux,
    windows,
  ];
}
