/** crictl.yaml: which endpoint `crictl` talks to (docs/knowledge/kubelet-and-cri.md#crictl). */
import { parse as parseYaml } from 'yaml';
import type { Fact } from '../../shared/model/fact';
import { known, unknownFact } from '../../shared/model/fact';
import type { CrictlFacts, Located } from '../../shared/model/snapshot';
import type { ProbeContext } from './context';
import { normalizeEndpoint } from '../conventions/endpoint';

/** Evidence quotes a line or two; a crictl.yaml larger than this is not a real one. */
const MAX_QUOTED_TEXT = 64 * 1024;

export const CRICTL_PATHS = {
  linux: ['/etc/crictl.yaml'],
  windows: ['C:\\etc\\crictl.yaml', 'C:\\Program Files\\containerd\\crictl.yaml'],
} as const;

export async function probeCrictl(ctx: ProbeContext): Promise<Fact<CrictlFacts | null>> {
  for (const path of CRICTL_PATHS[ctx.os]) {
    const t = await ctx.text(path);
    if (!t.known) return unknownFact(t.reason);
    if (!t.value) continue;
    const lines = t.value.text.split(/\r?\n/);
    let doc: unknown;
    try {
      doc = parseYaml(t.value.text, { maxAliasCount: 100 });
    } catch (e) {
      return known({
        path,
        text: t.value.text.slice(0, MAX_QUOTED_TEXT),
        error: `not valid YAML: ${(e as Error).message.split('\n')[0]}`,
      });
    }
    const rec = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>) : {};
    const loc = (key: string): Located<string> | undefined => {
      const v = rec[key];
      if (typeof v !== 'string' || v === '') return undefined;
      const idx = lines.findIndex((l) => l.trimStart().startsWith(`${key}:`));
      return { value: normalizeEndpoint(v), source: path, ...(idx >= 0 && { line: idx + 1 }) };
    };
    const runtimeEndpoint = loc('runtime-endpoint');
    const imageEndpoint = loc('image-endpoint');
    return known({
      path,
      text: t.value.text.slice(0, MAX_QUOTED_TEXT),
      ...(runtimeEndpoint && { runtimeEndpoint }),
      ...(imageEndpoint && { imageEndpoint }),
    });
  }
  return known(null);
}
