/**
 * write-crictl-config (cri.crictl.mismatch, cri.socket.multiple): point crictl at the kubelet's
 * endpoint. An existing crictl.yaml is edited in place (only the endpoint values change); a
 * missing one is created. crictl reads the file per command: nothing restarts.
 */
import { parse as parseYaml } from 'yaml';
import type { PlanBuilder } from './types';
import { createStep, editStep, type TextEdit } from './steps';
import { setYamlTopLevel, yamlScalar } from './line-edit';
import { CRICTL_PATHS } from '../../probes/crictl';
import { normalizeEndpoint, sameEndpoint } from '../../conventions/endpoint';
import { refuse } from './refusal';

export const buildWriteCrictlConfig: PlanBuilder<'write-crictl-config'> = async (s, r, host) => {
  const endpoint = r.offer.params.endpoint;
  const existing = s.crictl.known ? s.crictl.value : null;
  const path = existing?.path ?? CRICTL_PATHS[s.node.os][0];
  const current = await host.text(path);
  const impact = 'None: only the crictl command line changes which runtime it talks to.';
  if (!current) {
    const content = `runtime-endpoint: ${yamlScalar(endpoint)}\nimage-endpoint: ${yamlScalar(endpoint)}\ntimeout: 10\n`;
    return { risk: 'low', steps: [await createStep(host, path, content)], podImpact: impact };
  }
  let doc: unknown;
  try {
    doc = parseYaml(current.text);
  } catch {
    refuse(`${path} is not valid YAML; fix or remove it first`);
  }
  const rec = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>) : {};
  const edits: TextEdit[] = [(x) => setYamlTopLevel(x, 'runtime-endpoint', endpoint)];
  const image = rec['image-endpoint'];
  const oldRuntime = rec['runtime-endpoint'];
  // An image endpoint that followed the old runtime endpoint follows the new one.
  if (
    typeof image === 'string' &&
    typeof oldRuntime === 'string' &&
    sameEndpoint(normalizeEndpoint(image), normalizeEndpoint(oldRuntime))
  ) {
    edits.push((x) => setYamlTopLevel(x, 'image-endpoint', endpoint));
  }
  const write = await editStep(host, path, [
    ...edits,
    (x) => {
      const check = parseYaml(x) as Record<string, unknown> | null;
      return typeof check?.['runtime-endpoint'] === 'string' &&
        sameEndpoint(normalizeEndpoint(check['runtime-endpoint']), endpoint)
        ? { ok: true, text: x }
        : { ok: false, reason: 'the edited file does not name the endpoint' };
    },
  ]);
  return { risk: 'low', steps: [write], podImpact: impact };
};
