/**
 * containerd's loaded view can lag the files (docs/knowledge/cni-loading.md#how-containerds-cri-uses-the-loader): every CNI finding about that
 * runtime carries the sentence that says so, because its repair only helps after a reload.
 */
import { staleViewNote } from '../../rules/cri/network-not-ready';
import type { PostStep } from './types';

export const staleViewNoteStep: PostStep = {
  id: 'stale-view-note',
  run(a, { derived }) {
    for (const rt of derived.judged) {
      const note = staleViewNote(rt);
      if (!note) continue;
      for (const f of a.findings)
        if (f.rule.startsWith('cni.') && f.runtime === rt.label)
          f.evidence.push({ kind: 'text', text: note });
    }
    return a;
  },
};
