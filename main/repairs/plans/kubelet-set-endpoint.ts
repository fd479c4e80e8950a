/**
 * kubelet-set-endpoint (cri.endpoint.missing): point the kubelet at the one live runtime endpoint,
 * where its endpoint comes from — the flag's line, or `containerRuntimeEndpoint` in its config
 * (added there when the kubelet relies on its built-in default, ≥ 1.27). kubeadm ≥ 1.32 keeps a
 * copy in instance-config.yaml (docs/knowledge/node-layouts.md#what-each-repair-does-to-a-running-node); a copy there is changed too.
 */
import type { WriteStep } from '../../../shared/model/repair';
import { compareVersions } from '../../rules/versions';
import type { PlanBuilder } from './types';
import { editStep, restartStep } from './steps';
import { setFlagOnLine, setYamlTopLevel } from './line-edit';
import { isSystemdDropIn, KUBELET_RESTART_IMPACT } from './kubelet';
import { refuse } from './refusal';

const INSTANCE_CONFIG = '/var/lib/kubelet/instance-config.yaml';

export const buildKubeletSetEndpoint: PlanBuilder<'kubelet-set-endpoint'> = async (s, r, host) => {
  const endpoint = r.offer.params.endpoint;
  if (!s.kubelet.known || !s.kubelet.value) refuse('the kubelet was not found');
  const k = s.kubelet.value;
  const ep = k.endpoint;
  if (!ep) refuse("the kubelet's endpoint is not known");
  const steps: WriteStep[] = [];
  if (ep.source.startsWith('process:'))
    refuse(
      'the endpoint comes from the kubelet command line itself, not from a file this repair can edit',
    );
  if (ep.source === 'default') {
    if (!k.version || compareVersions(k.version, '1.27') < 0)
      refuse(
        'this kubelet release has no containerRuntimeEndpoint config field; pass --container-runtime-endpoint in its flags file',
      );
    if (!k.configPath) refuse("the kubelet's config file is not known");
    steps.push(
      await editStep(host, k.configPath, [
        (x) => setYamlTopLevel(x, 'containerRuntimeEndpoint', endpoint),
      ]),
    );
  } else if (ep.source === k.configPath) {
    steps.push(
      await editStep(host, ep.source, [
        (x) => setYamlTopLevel(x, 'containerRuntimeEndpoint', endpoint),
      ]),
    );
  } else {
    if (ep.line === undefined)
      refuse(`the line of ${ep.source} that sets the endpoint is not known`);
    steps.push(
      await editStep(host, ep.source, [
        (x) => setFlagOnLine(x, ep.line as number, 'container-runtime-endpoint', endpoint),
      ]),
    );
  }
  const instance = s.node.os === 'linux' ? await host.text(INSTANCE_CONFIG) : null;
  if (
    instance &&
    /^containerRuntimeEndpoint\s*:/m.test(instance.text) &&
    !steps.some((st) => st.path === INSTANCE_CONFIG)
  ) {
    steps.push(
      await editStep(host, INSTANCE_CONFIG, [
        (x) => setYamlTopLevel(x, 'containerRuntimeEndpoint', endpoint),
      ]),
    );
  }
  return {
    risk: 'medium',
    steps: [
      ...steps,
      restartStep(host, 'kubelet', { daemonReload: steps.some((st) => isSystemdDropIn(st.path)) }),
    ],
    podImpact: `${KUBELET_RESTART_IMPACT} Once it reaches ${endpoint}, pods waiting for a runtime are started.`,
  };
};
