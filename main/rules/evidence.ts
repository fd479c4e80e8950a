/** Builders for evidence items, so every rule quotes files and dirs the same way. */
import type { Evidence, EvidenceLine } from '../../shared/model/finding';
import type { CniConfFile, Located, Snapshot, TextFile } from '../../shared/model/snapshot';
import { parsed, type RuntimeView } from './derive';

const MAX_LINE = 300;

/** Lines `[from, to]` of a text, with `highlight` on the given line numbers. */
export function excerpt(text: string, highlight: readonly number[], context = 2): EvidenceLine[] {
  const lines = text.split(/\r?\n/);
  if (highlight.length === 0)
    return lines.slice(0, 12).map((t, i) => ({ line: i + 1, text: t.slice(0, MAX_LINE) }));
  const want = new Set<number>();
  for (const h of highlight)
    for (let l = Math.max(1, h - context); l <= Math.min(lines.length, h + context); l++)
      want.add(l);
  return [...want]
    .sort((a, b) => a - b)
    .map((l) => ({
      line: l,
      text: (lines[l - 1] ?? '').slice(0, MAX_LINE),
      ...(highlight.includes(l) && { highlight: true }),
    }));
}

export function fileEvidence(
  file: { path: string; text?: string },
  highlight: readonly number[],
  note?: string,
): Evidence {
  return {
    kind: 'file',
    path: file.path,
    lines: file.text !== undefined ? excerpt(file.text, highlight) : [],
    ...(note !== undefined && { note }),
  };
}

/** Quote the line a Located value came from, if the snapshot holds that file's text. */
export function locatedEvidence(s: Snapshot, loc: Located<unknown>, note?: string): Evidence {
  if (loc.source === 'default' || loc.source.startsWith('process:')) {
    return {
      kind: 'text',
      text: `${note ? `${note}: ` : ''}${JSON.stringify(loc.value)} (${loc.source === 'default' ? 'built-in default' : `from the ${loc.source.slice(8)} command line`})`,
    };
  }
  const text = findText(s, loc.source);
  return {
    kind: 'file',
    path: loc.source,
    lines: text ? excerpt(text, loc.line !== undefined ? [loc.line] : []) : [],
    ...(note !== undefined && { note }),
  };
}

export function findText(s: Snapshot, path: string): string | undefined {
  const pools: { path: string; file: { known: boolean; value?: TextFile } }[] = [];
  if (s.containerd.known && s.containerd.value)
    pools.push(...(s.containerd.value.files as typeof pools));
  if (s.crio.known && s.crio.value) pools.push(...(s.crio.value.files as typeof pools));
  for (const f of pools)
    if (f.path === path && f.file.known && f.file.value) return f.file.value.text;
  if (s.kubelet.known && s.kubelet.value) {
    const f = s.kubelet.value.files.find((x) => x.path === path);
    if (f) return f.text;
  }
  if (s.crictl.known && s.crictl.value?.path === path && s.crictl.value.text !== undefined)
    return s.crictl.value.text;
  for (const d of s.confDirs) {
    if (!d.entries.known) continue;
    const f = d.entries.value.find((x) => x.path === path);
    if (f?.text !== undefined) return f.text;
  }
  return undefined;
}

export function confDirEvidence(rt: RuntimeView, note?: string): Evidence | undefined {
  if (!rt.confDir || !rt.load) return undefined;
  return {
    kind: 'conf-dir',
    path: rt.confDir.path,
    runtime: rt.label,
    entries: rt.load.entries.map((e) => {
      const p = parsed(e.file, rt.profile.libcni);
      return {
        name: e.file.name,
        role: e.role,
        ...(p?.ok && p.network !== undefined && { network: p.network }),
        ...(p?.ok && { plugins: p.plugins.map((x) => x.type) }),
        ...(e.note !== undefined && { note: e.note }),
        ...(p && !p.ok && { note: p.error }),
      };
    }),
    note:
      note ??
      `${rt.label} reads these in byte-wise order (what Go's sort.Strings does); ${rt.profile.note}`,
  };
}

export function confFileEvidence(f: CniConfFile, note?: string): Evidence {
  const p = parsed(f);
  const line = p && !p.ok && p.line !== undefined ? [p.line] : [];
  return fileEvidence({ path: f.path, ...(f.text !== undefined && { text: f.text }) }, line, note);
}
