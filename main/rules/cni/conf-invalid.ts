import type { Rule, FindingDraft, RepairOffer } from '../types';
import { offer } from '../offers';
import { confDirEvidence, confFileEvidence } from '../evidence';
import { judgeEachRuntime } from './shared';
import { parsed } from '../derive';
import { byteOrder } from '../../conventions/cni-files';

export const cniConfInvalid: Rule = {
  id: 'cni.conf.invalid',
  area: 'cni',
  severity: 'error',
  severityWhen: {
    error:
      'the runtime loads no network because of it (containerd stops at it, or no config is valid)',
    warning: 'another valid config is loaded instead',
  },
  title: 'A loadable CNI config does not parse',
  firesWhen:
    'a loadable file fails to parse as a CNI config or list (bad JSON, missing `type`, conflist without `name` or `plugins`)',
  repair: { kind: 'auto', text: 'disable the file by renaming it, when a valid config remains' },
  platforms: ['linux', 'windows'],
  kb: [
    'docs/knowledge/cni-loading.md#how-libcni-finds-config-files',
    'docs/knowledge/cni-loading.md#containerds-loader',
  ],
  evaluate(ctx) {
    return judgeEachRuntime(ctx, (rt) => {
      const { load } = rt;
      const findings: FindingDraft[] = [];
      const firstValid = load.valid[0];
      for (const f of load.invalid) {
        const parse = parsed(f, rt.profile.libcni);
        const p = parse && !parse.ok ? parse : undefined;
        // containerd aborts on the first bad file before its first valid one (docs/knowledge/cni-loading.md#containerds-loader).
        const fatal = rt.name === 'containerd' ? load.fatal === f : false;
        const severity = fatal || load.valid.length === 0 ? 'error' : 'warning';
        const before = firstValid ? byteOrder(f.name, firstValid.name) < 0 : true;
        const repairs: RepairOffer[] =
          load.valid.length > 0
            ? [
                offer('rename-file', `Disable ${f.name} (rename to ${f.name}.disabled)`, {
                  from: f.path,
                  to: `${f.path}.disabled`,
                }),
              ]
            : [];
        findings.push({
          key: `${rt.name}:${f.name}`,
          severity,
          runtime: rt.label,
          title: `${f.name} is not a valid CNI config${fatal ? `: ${rt.label} loads no network at all` : ''}`,
          summary: fatal
            ? `${rt.label} reads ${f.name} ${before ? 'before any valid config' : ''} and stops at its error (${p?.error}). It then loads no CNI network, reports NetworkReady=false, and every new pod fails sandbox creation. Judged with the ${rt.profile.note}.`
            : `${f.name} fails to parse (${p?.error}). ${rt.name === 'crio' ? 'CRI-O skips it' : `${rt.label} never reaches it because it stops after its in-use config`}, but it breaks the node as soon as the files before it go away. Judged with the ${rt.profile.note}.`,
          evidence: [confFileEvidence(f, p?.error), ...(fatal ? [confDirEvidence(rt)!] : [])],
          repairs,
          ...(repairs.length === 0 && {
            guidance:
              'Fix the JSON (the highlighted line) or remove the file; no valid config would remain if it were disabled.',
          }),
        });
      }
      return findings;
    });
  },
};
