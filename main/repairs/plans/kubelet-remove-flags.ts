/**
 * kubelet-remove-flags (kubelet.flags.removed): delete the removed flags from the file line that
 * carries each (kubeadm-flags.env, /etc/default|sysconfig/kubelet, a unit drop-in, a Windows
 * StartKubelet.ps1), then restart the kubelet. The edited files are re-parsed the way the probe reads them: the flags must be gone.
 */
import type { KubeletFlag } from '../../../shared/model/snapshot';
import type { WriteStep } from '../../../shared/model/repair';
import { parseFlags } from '../../probes/kubelet';
import { parseEnvFile, splitArgs } from '../../probes/args';
import { scriptKubeletFlags } from '../../probes/windows/kubelet-script';
import type { PlanBuilder } from './types';
import { editStep, restartStep, type TextEdit } from './steps';
import { removeFlagOnLine } from './line-edit';
import { isSystemdDropIn, KUBELET_RESTART_IMPACT } from './kubelet';
import { refuse } from './refusal';

function flagsIn(text: string, path: string): string[] {
  // A Windows start script (StartKubelet.ps1) is read the way the probe reads it.
  if (/\.ps1$/i.test(path)) return scriptKubeletFlags(text, path).flags.map((f) => f.name);
  const out: string[] = [];
  for (const e of parseEnvFile(text))
    out.push(...parseFlags(splitArgs(e.value), path).map((f) => f.name));
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:Environment="?[A-Z_]+=|ExecStart=\S+\s)(.*?)"?\s*$/.exec(line);
    if (m?.[1]) out.push(...parseFlags(splitArgs(m[1]), path).map((f) => f.name));
  }
  return out;
}

export const buildKubeletRemoveFlags: PlanBuilder<'kubelet-remove-flags'> = async (s, r, host) => {
  const names = r.offer.params.flags;
  if (!s.kubelet.known || !s.kubelet.value) refuse('the kubelet was not found');
  const bad = s.kubelet.value.flags.filter((f) => names.includes(f.name));
  if (bad.length === 0)
    refuse(`the kubelet no longer has ${names.map((n) => `--${n}`).join(', ')}`);
  const fromProcess = bad.filter((f) => f.source.startsWith('process:') || f.line === undefined);
  if (fromProcess.length > 0)
    refuse(
      `--${fromProcess[0]!.name} comes from the kubelet command line itself, not from a file this repair can edit`,
    );
  const byFile = new Map<string, KubeletFlag[]>();
  for (const f of bad) byFile.set(f.source, [...(byFile.get(f.source) ?? []), f]);
  const steps: WriteStep[] = [];
  for (const [path, flags] of byFile) {
    const edits: TextEdit[] = flags.map(
      (f) => (x: string) => removeFlagOnLine(x, f.line as number, f.name, f.value),
    );
    edits.push((x) => {
      const left = flagsIn(x, path).filter((n) => names.includes(n));
      return left.length === 0
        ? { ok: true, text: x }
        : { ok: false, reason: `--${left[0]} is still set after the edit` };
    });
    steps.push(await editStep(host, path, edits));
  }
  const reload = [...byFile.keys()].some(isSystemdDropIn);
  return {
    risk: 'medium',
    steps: [...steps, restartStep(host, 'kubelet', { daemonReload: reload })],
    podImpact: KUBELET_RESTART_IMPACT,
    notes: [...byFile.keys()].some((p) => p.endsWith('kubeadm-flags.env'))
      ? [
          'kubeadm rewrites kubeadm-flags.env on `kubeadm upgrade`/`join`; check its kubeletExtraArgs too.',
        ]
      : [],
  };
};
