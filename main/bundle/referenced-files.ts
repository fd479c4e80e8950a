/**
 * Files a CNI config names for its plugin to read at pod setup: the kubeconfig Calico, Multus,
 * Cilium and others point to (`"kubeconfig": "/etc/cni/net.d/calico-kubeconfig"`). `collect`
 * records them so a support engineer sees what the plugin sees — and because they hold API
 * tokens and client keys, they pass through the same redaction as every other file.
 */
import type { Snapshot } from '../../shared/model/snapshot';
import type { Host } from '../host/host';
import { READ_LIMITS } from './limits';

/** Keys whose string value names a file the plugin reads. */
const FILE_KEYS = /^(kubeconfig|kubeconfig_?file(path)?|kubeconfig_?path)$/i;

const MAY_NAME_A_FILE = /kubeconfig|\\/i;

/** At most this many referenced files per collection (a hostile conf could name thousands). */
const MAX_REFERENCED = 32;

function isAbsolute(os: 'linux' | 'windows', p: string): boolean {
  return os === 'windows' ? /^[A-Za-z]:[\\/]/.test(p) : p.startsWith('/');
}

/** Every file a parsed CNI config in the snapshot names under a kubeconfig key. */
export function referencedFiles(snapshot: Snapshot, os: 'linux' | 'windows'): string[] {
  const found = new Set<string>();
  for (const dir of snapshot.confDirs) {
    if (!dir.entries.known) continue;
    for (const f of dir.entries.value) {
      if (f.text === undefined || !f.text.trimStart().startsWith('{')) continue;
      // Every key FILE_KEYS accepts holds "kubeconfig" (an escape could spell it otherwise):
      // a conf without either names no file, and is not parsed a second time.
      if (!MAY_NAME_A_FILE.test(f.text)) continue;
      let doc: unknown;
      try {
        doc = JSON.parse(f.text);
      } catch {
        continue;
      }
      // Iterative walk: a deeply nested conf cannot overflow the stack.
      const stack: unknown[] = [doc];
      while (stack.length > 0 && found.size < MAX_REFERENCED) {
        const v = stack.pop();
        if (Array.isArray(v)) stack.push(...v);
        else if (typeof v === 'object' && v !== null)
          for (const [k, x] of Object.entries(v)) {
            if (typeof x === 'string' && FILE_KEYS.test(k) && isAbsolute(os, x)) found.add(x);
            else if (typeof x === 'object') stack.push(x);
          }
      }
    }
  }
  return [...found];
}

/** Reads (and so records, through a RecordingHost) every referenced file. */
export async function recordReferencedFiles(host: Host, snapshot: Snapshot): Promise<void> {
  for (const p of referencedFiles(snapshot, host.os))
    await host.readFile(p, { maxBytes: READ_LIMITS.configBytes });
}
