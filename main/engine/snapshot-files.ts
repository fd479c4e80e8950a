/**
 * The files whose text a scan's snapshot holds — the text the rules judged and the evidence
 * quotes, by the path the evidence names. The file viewer reads only from here: a path that is
 * not in this table is not served, whatever it looks like, so no request reaches a disk.
 */
import type { Snapshot, TextFile } from '../../shared/model/snapshot';
import { READ_LIMITS } from '../bundle/limits';
import { MAX_CONF_TEXT } from '../probes/cni-dirs';

export interface HeldText {
  path: string;
  text: string;
  /** "containerd config", "CNI conf dir /etc/cni/net.d", … */
  holder: string;
  /** Why the text may be shorter than the file, when it is. */
  capped?: string;
  encodingError?: string;
}

const mib = (n: number): string => `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;

function fromTextFile(f: TextFile, holder: string): HeldText {
  return {
    path: f.path,
    text: f.text,
    holder,
    ...(f.truncated && {
      capped: `the scan read only the first ${mib(READ_LIMITS.configBytes)} of this file; what follows was not read or judged`,
    }),
    ...(f.encodingError !== undefined && { encodingError: f.encodingError }),
  };
}

/** Path → text, first holder wins (the same file read twice is one read: ProbeContext). */
export function snapshotTexts(s: Snapshot): Map<string, HeldText> {
  const out = new Map<string, HeldText>();
  const add = (h: HeldText): void => {
    if (!out.has(h.path)) out.set(h.path, h);
  };
  if (s.containerd.known && s.containerd.value)
    for (const f of s.containerd.value.files)
      if (f.file.known) add(fromTextFile(f.file.value, 'containerd config'));
  if (s.crio.known && s.crio.value)
    for (const f of s.crio.value.files)
      if (f.file.known) add(fromTextFile(f.file.value, 'CRI-O config'));
  if (s.kubelet.known && s.kubelet.value)
    for (const f of s.kubelet.value.files) add(fromTextFile(f, 'kubelet configuration'));
  if (s.crictl.known && s.crictl.value?.text !== undefined)
    add({ path: s.crictl.value.path, text: s.crictl.value.text, holder: 'crictl.yaml' });
  for (const d of s.confDirs) {
    if (!d.entries.known) continue;
    for (const f of d.entries.value) {
      if (f.text === undefined) continue;
      add({
        path: f.path,
        text: f.text,
        holder: `CNI conf dir ${d.path}`,
        ...(f.text.length >= MAX_CONF_TEXT && {
          capped: `the snapshot keeps the first ${MAX_CONF_TEXT.toLocaleString('en-US')} characters of a CNI config${f.size !== undefined ? ` (this file has ${f.size.toLocaleString('en-US')} bytes)` : ''}; what follows is not shown`,
        }),
      });
    }
  }
  return out;
}
