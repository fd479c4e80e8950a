/**
 * containerd-set-systemd-cgroup (kubelet.cgroup-driver.mismatch): set the default runtime's
 * `SystemdCgroup` to match the kubelet. In version 1/2 files a newly written runtime table
 * without `runtime_type` makes containerd 1.x run runc with an empty type (containerd#6964), so
 * the plan writes `runtime_type` too when the file lacks it.
 */
import { setTomlValue } from '../../config/toml';
import { parseToml } from '../../config/toml';
import { getIn } from '../../probes/config-chain';
import { lookupString, parseConfigFile } from '../../probes/config-chain';
import type { PlanBuilder } from './types';
import type { TextEdit } from './steps';
import { editStep, restartStep } from './steps';
import { CONTAINERD_RESTART_IMPACT, containerdTarget, fileFor } from './containerd-config';

export const buildContainerdSetSystemdCgroup: PlanBuilder<'containerd-set-systemd-cgroup'> = async (
  s,
  r,
  host,
) => {
  const t = containerdTarget(s);
  const value = r.offer.params.value;
  const file = fileFor(t, t.facts.systemdCgroup);
  const text = await host.text(file);
  const chain = text
    ? parseConfigFile({ path: file, text: text.text, truncated: false }, [])
    : undefined;
  const runtimeName =
    (chain
      ? lookupString([chain], [...t.runtimeTable, 'containerd', 'default_runtime_name'])?.value
      : undefined) ?? 'runc';
  const runtime = [...t.runtimeTable, 'containerd', 'runtimes', runtimeName];
  const edits: TextEdit[] = [
    (x) => setTomlValue(x, [...runtime, 'options', 'SystemdCgroup'], value),
  ];
  const doc = text ? parseToml(text.text) : undefined;
  if (
    t.version <= 2 &&
    runtimeName === 'runc' &&
    doc?.ok &&
    getIn(doc.value, [...runtime, 'runtime_type']) === undefined
  ) {
    edits.push((x) => setTomlValue(x, [...runtime, 'runtime_type'], 'io.containerd.runc.v2'));
  }
  const write = await editStep(host, file, edits);
  return {
    risk: 'high',
    steps: [write, restartStep(host, t.service)],
    podImpact: `${CONTAINERD_RESTART_IMPACT} Changing the cgroup driver of a node that already runs pods is disruptive: sandboxes created under the old driver can fail to be re-created ("Changing the cgroup driver of a Node that has joined a cluster is a sensitive operation", kubernetes.io). Drain the node first and restart the kubelet after this repair.`,
  };
};
