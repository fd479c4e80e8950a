import type { Rule, FindingDraft } from '../types';
import { fail, notApplicable, pass, unknown } from '../types';
import { fileEvidence, findText } from '../evidence';

export const containerdConfigInvalid: Rule = {
  id: 'containerd.config.invalid',
  area: 'containerd',
  severity: 'error',
  title: "containerd's config.toml is invalid",
  firesWhen:
    '`config.toml` (or an import) is not valid TOML, or holds a value containerd refuses at start (e.g. `disabled_plugins = ["cri"]` in a `version = 2` file)',
  repair: {
    kind: 'guidance',
    text: 'fix the file at the reported line and column, check with `containerd config dump`, restart containerd',
  },
  platforms: ['linux', 'windows'],
  kb: [
    'docs/knowledge/containerd.md#config-versions',
    'docs/knowledge/containerd.md#unknown-keys-and-keys-of-the-wrong-version',
  ],
  evaluate(ctx) {
    const s = ctx.snapshot;
    if (!s.containerd.known) return unknown(s.containerd.reason);
    const c = s.containerd.value;
    if (!c) return notApplicable('containerd is not installed');
    const unreadable = c.files.find((f) => f.exists && !f.file.known);
    if (c.configErrors.length === 0 && unreadable)
      return unknown(`${unreadable.path} could not be read`);
    if (c.configErrors.length === 0) return pass();
    const findings: FindingDraft[] = c.configErrors.map((e, i) => ({
      key: `${i}`,
      severity: 'error',
      runtime: 'containerd',
      title: `${e.path}${e.line !== undefined ? `:${e.line}` : ''}: ${e.message.split('\n')[0]?.slice(0, 160)}`,
      summary: `containerd refuses to start with this config (or, for an import, fails to load it), so its socket disappears and the kubelet cannot reach any runtime.`,
      evidence: [
        fileEvidence(
          {
            path: e.path,
            ...(findText(s, e.path) !== undefined && { text: findText(s, e.path) as string }),
          },
          e.line !== undefined ? [e.line] : [],
          e.message,
        ),
      ],
      repairs: [],
      guidance: `Fix ${e.path}${e.line !== undefined ? ` at line ${e.line}${e.column !== undefined ? `, column ${e.column}` : ''}` : ''}, then check with \`containerd config dump\` and restart containerd.`,
    }));
    return fail(...findings);
  },
};
