import type { Rule, FindingDraft } from '../types';
import { offer } from '../offers';
import { fail, notApplicable, pass, unknown } from '../types';
import { locatedEvidence } from '../evidence';
import type { ContainerdFacts } from '../../../shared/model/snapshot';

/** Plugin ids that turn CRI off, per containerd line (docs/knowledge/containerd.md#disabled_plugins). */
export function disablesCri(entry: string): boolean {
  return (
    entry === 'cri' ||
    entry === 'io.containerd.grpc.v1.cri' ||
    entry.startsWith('io.containerd.cri.v1.')
  );
}

export function isUnknownServiceAnswer(
  err: { code: number; message: string } | null | undefined,
): boolean {
  return (
    !!err &&
    err.code === 12 &&
    /unknown service runtime\.v1(alpha2)?\.RuntimeService/i.test(err.message)
  );
}

export const containerdCriDisabled: Rule = {
  id: 'containerd.cri.disabled',
  area: 'containerd',
  severity: 'error',
  title: "containerd's CRI plugin is disabled",
  firesWhen:
    '`disabled_plugins` lists `cri`, `io.containerd.grpc.v1.cri` (1.x) or `io.containerd.cri.v1.*` (2.x), or the containerd endpoint answers `UNIMPLEMENTED: unknown service runtime.v1.RuntimeService`',
  repair: {
    kind: 'auto',
    text: 'remove that entry with a minimal text edit, restart containerd, verify CRI answers',
  },
  platforms: ['linux', 'windows'],
  kb: ['docs/knowledge/containerd.md#disabled_plugins'],
  evaluate(ctx) {
    const s = ctx.snapshot;
    if (!s.containerd.known) return unknown(s.containerd.reason);
    const rt = ctx.derived.runtimes.find((r) => r.name === 'containerd');
    if (!s.containerd.value || !rt) return notApplicable('containerd is not installed');
    if (!rt.usedByKubelet)
      return notApplicable(
        `the kubelet does not use ${rt.label} (it dials another runtime), so its CRI may stay off`,
      );
    const c = s.containerd.value as ContainerdFacts;
    const entries = c.disabledPlugins.filter((d) => disablesCri(d.value));
    const answered = rt.cri && isUnknownServiceAnswer(rt.cri.error);
    if (entries.length === 0 && !answered) return pass();
    const evidence = entries.map((e) => locatedEvidence(s, e, 'disabled_plugins'));
    if (answered && rt.cri)
      evidence.push({
        kind: 'cri',
        endpoint: rt.cri.endpoint,
        field: 'error',
        value: `code ${rt.cri.error!.code}: ${rt.cri.error!.message}`,
      });
    const entry = entries[0];
    const draft: FindingDraft = {
      severity: 'error',
      runtime: rt.label,
      title:
        entries.length > 0
          ? `${c.configPath} disables containerd's CRI plugin ("${entry!.value}")`
          : `${rt.label} does not serve CRI (unknown service runtime.v1.RuntimeService)`,
      summary:
        entries.length > 0
          ? c.configErrors.length > 0
            ? `With this line containerd does not serve CRI — and this config version even makes it refuse to start (see containerd.config.invalid) — so the kubelet cannot create any pod sandbox. Docker's containerd.io package ships exactly this line.`
            : `containerd runs, but with CRI disabled the kubelet gets "unknown service runtime.v1.RuntimeService" and cannot create any pod sandbox. Docker's containerd.io package ships exactly this line.`
          : `containerd answers on ${rt.endpoint} but has no CRI service: the CRI plugin is disabled or failed to load (containerd's log says why).`,
      evidence,
      repairs: entry
        ? [
            offer(
              'containerd-enable-cri',
              `Remove "${entry.value}" from disabled_plugins in ${entry.source} and restart containerd`,
              { file: entry.source, element: entry.value },
            ),
          ]
        : [],
      ...(!entry && {
        guidance:
          "Read containerd's log for 'failed to load plugin io.containerd.grpc.v1.cri' and fix the reported setting, then restart containerd.",
      }),
    };
    return fail(draft);
  },
};
