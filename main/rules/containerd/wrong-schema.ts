import type { Rule, FindingDraft } from '../types';
import { fail, notApplicable, pass, unknown } from '../types';
import { fileEvidence, findText } from '../evidence';

export const containerdConfigWrongSchema: Rule = {
  id: 'containerd.config.wrong-schema',
  area: 'containerd',
  severity: 'warning',
  title: 'CRI/CNI keys sit under a plugin table this config version ignores',
  firesWhen:
    'CRI/CNI keys sit under the plugin table of another config version (e.g. `plugins."io.containerd.grpc.v1.cri"` in a `version = 3` file), so containerd silently ignores them',
  repair: {
    kind: 'guidance',
    text: 'which table the key belongs in (or `containerd config migrate`)',
  },
  platforms: ['linux', 'windows'],
  kb: [
    'docs/knowledge/containerd.md#where-the-cri-and-cni-keys-live',
    'docs/knowledge/containerd.md#unknown-keys-and-keys-of-the-wrong-version',
  ],
  evaluate(ctx) {
    const s = ctx.snapshot;
    if (!s.containerd.known) return unknown(s.containerd.reason);
    const c = s.containerd.value;
    if (!c) return notApplicable('containerd is not installed');
    if (c.wrongSchemaKeys.length === 0) return pass();
    const findings: FindingDraft[] = c.wrongSchemaKeys.map((k) => ({
      key: `${k.path}:${k.key}`,
      severity: 'warning',
      runtime: 'containerd',
      title: `${k.key} is ignored in a version ${c.configVersion} config`,
      summary: `containerd reads a version ${c.configVersion} config from ${c.configPath}; settings under ${k.key} belong to another config version and are silently ignored (containerd 2.x logs "Ignoring unknown key in TOML for plugin"). Whatever they set — CNI dirs, SystemdCgroup, runtimes — is not in effect.`,
      evidence: [
        fileEvidence(
          {
            path: k.path,
            ...(findText(s, k.path) !== undefined && { text: findText(s, k.path) as string }),
          },
          [k.line],
        ),
      ],
      repairs: [],
      guidance: `Move the settings to ${k.belongsIn} (or run \`containerd config migrate\` and compare), then restart containerd.`,
    }));
    return fail(...findings);
  },
};
