import type { Rule, FindingDraft, RepairOffer, RuleContext } from '../types';
import { offer } from '../offers';
import { fail, pass, unknown } from '../types';
import { confFileEvidence } from '../evidence';
import { isOutcome, judgedRuntimes } from './shared';
import { binDirHas, missingPlugins, type RuntimeView } from '../derive';
import { isDefaultConfig } from '../cni-classify';
import { pathKey } from '../../conventions/node-paths';
import { WELL_KNOWN_BIN_DIRS } from '../../conventions/cni-files';

export const cniPluginMissing: Rule = {
  id: 'cni.plugin.missing',
  area: 'cni',
  severity: 'error',
  severityWhen: {
    error: 'the config is in use, or is a cluster config the runtime skipped because of it',
    warning: 'the config is not in use now',
  },
  title: "A CNI plugin binary named by a config is not in the runtime's bin dirs",
  firesWhen:
    "a plugin type (type, ipam.type, flannel's delegate.type) named in a config of the runtime's conf dir is not an executable in any of the runtime's bin dirs (Windows: `<type>.exe`); error for the config in use and for a cluster config the runtime skipped because of it, warning for others",
  repair: {
    kind: 'auto',
    text: "when the binary exists in another well-known bin dir, point the runtime's bin dir there (CRI-O: add it to plugin_dirs in a drop-in); else guidance",
  },
  platforms: ['linux', 'windows'],
  kb: [
    'docs/knowledge/cni-loading.md#error-strings-from-libcni-and-plugins',
    'docs/knowledge/cni-loading.md#checking-plugin-binaries',
    'docs/knowledge/cni-loading.md#containerds-loader',
  ],
  evaluate(ctx) {
    const rts = judgedRuntimes(ctx);
    if (isOutcome(rts)) return rts;
    const findings: FindingDraft[] = [];
    for (const rt of rts) {
      const load = rt.load;
      if (rt.binDirs.length === 0) return unknown(`${rt.label}'s bin dirs were not examined`);
      for (const f of load.valid) {
        const missing = missingPlugins(ctx.snapshot.node.os, f, rt.binDirs);
        if (missing === undefined) return unknown(`${rt.label}'s bin dirs could not be listed`);
        if (missing.length === 0) continue;
        const inUse = load.inUse.includes(f);
        const skipped = load.skippedForPlugins.includes(f) && !isDefaultConfig(f);
        const severity = inUse || skipped ? 'error' : 'warning';
        const elsewhere = findElsewhere(ctx, rt, missing);
        const repairs: RepairOffer[] = elsewhere ? [pointBinDir(rt, elsewhere)] : [];
        const dirs = rt.binDirs.map((d) => d.path).join(', ');
        findings.push({
          key: `${rt.name}:${f.name}`,
          severity,
          runtime: rt.label,
          title: `${f.name} needs plugin ${missing.map((m) => `"${m}"`).join(', ')}, which is not in ${dirs}`,
          summary: inUse
            ? `${rt.label} uses ${f.name}, so every pod sandbox fails with: failed to find plugin "${missing[0]}" in path [${rt.binDirs.map((d) => d.path).join(' ')}].${statusNote(rt)}${unusableNote(rt, missing)}${elsewhere ? ` The binary exists in ${elsewhere}.` : ''}`
            : skipped
              ? `CRI-O skips ${f.name} because its plugin is missing, so another network is used instead.${elsewhere ? ` The binary exists in ${elsewhere}.` : ''}`
              : `${f.name} is not in use now, but would fail as soon as it is.`,
          evidence: [
            confFileEvidence(f),
            ...rt.binDirs.map((d) => ({
              kind: 'path' as const,
              path: d.path,
              state: d.missing
                ? 'missing'
                : d.entries.known
                  ? `holds ${d.entries.value.length} file(s): ${d.entries.value.slice(0, 25).join(', ')}`
                  : 'unreadable',
            })),
          ],
          repairs,
          ...(repairs.length === 0 && {
            guidance: `Install the missing plugin(s) into ${rt.binDirs[0]!.path} (the CNI's installer, or the containernetworking-plugins package for reference plugins).`,
          }),
        });
      }
    }
    return findings.length ? fail(...findings) : pass();
  },
};

/**
 * containerd 2.0.3+ (go-cni v1.1.12) runs STATUS of a cniVersion ≥ 1.1.0 network, so the missing
 * plugin already shows as NetworkReady=false (docs/knowledge/cni-loading.md#containerds-loader);
 * CRI-O checks only each plugin's type at load, so a missing IPAM or delegate leaves the file in use.
 */
function statusNote(rt: RuntimeView): string {
  const st = rt.load?.status;
  if (rt.name === 'containerd' && st && !st.ok && rt.profile.statusRunsPlugins)
    return ` With cniVersion 1.1.0 or later, ${rt.label} runs the plugins' STATUS and already reports NetworkReady=false (${rt.profile.note}).`;
  if (rt.name === 'crio')
    return ` CRI-O checks only each plugin's type when it loads the file, so it keeps this network and pods fail when the plugin runs.`;
  return '';
}

/** Names that are there but that os.Stat / exec cannot use (a folder, a dangling link). */
function unusableNote(rt: RuntimeView, missing: string[]): string {
  const parts: string[] = [];
  for (const d of rt.binDirs)
    for (const m of missing) {
      const u = d.unusable?.[m];
      if (u === 'dir') parts.push(`${d.path}/${m} is a folder`);
      if (u === 'dangling') parts.push(`${d.path}/${m} is a symlink to nothing`);
    }
  return parts.length ? ` (${parts.join('; ')}: the runtime looks for a regular file.)` : '';
}

/** A well-known bin dir outside the runtime's list that holds every missing type. */
function findElsewhere(ctx: RuleContext, rt: RuntimeView, missing: string[]): string | undefined {
  const os = ctx.snapshot.node.os;
  const own = new Set(rt.binDirs.map((d) => pathKey(os, d.path).replace(/[\\/]+$/, '')));
  for (const d of ctx.snapshot.binDirs) {
    if (own.has(pathKey(os, d.path).replace(/[\\/]+$/, ''))) continue;
    if (
      !(WELL_KNOWN_BIN_DIRS[os] as readonly string[]).some(
        (w) => pathKey(os, w) === pathKey(os, d.path),
      )
    )
      continue;
    if (missing.every((t) => binDirHas(os, d, t) === true)) return d.path;
  }
  return undefined;
}

function pointBinDir(rt: RuntimeView, dir: string): RepairOffer {
  return offer(
    rt.name === 'crio' ? 'crio-add-plugin-dir' : 'containerd-add-bin-dir',
    rt.name === 'crio'
      ? `Add ${dir} to CRI-O's plugin_dirs (drop-in) and restart CRI-O`
      : `Add ${dir} to containerd's CNI bin dirs and restart containerd`,
    { dir },
  );
}
