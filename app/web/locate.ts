/**
 * Finds the built renderer and the demo bundles whether `serve` runs from the esbuild bundle
 * (dist/cli.mjs: siblings of dist/) or from source (tsx, tests: the repository root).
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findDemosDir } from '../shared-server/demos';

function ancestors(from: string): string[] {
  const out: string[] = [];
  let d = from;
  for (let i = 0; i < 5; i++) {
    out.push(d);
    const up = path.dirname(d);
    if (up === d) break;
    d = up;
  }
  return out;
}

export function locateAssets(moduleUrl: string | undefined = import.meta.url): { staticDir?: string; demosDir?: string } {
  const here = moduleUrl ? path.dirname(fileURLToPath(moduleUrl)) : process.cwd();
  const roots = [...ancestors(here), process.cwd()];
  const staticDir = roots
    .flatMap((d) => [path.join(d, 'renderer'), path.join(d, 'dist', 'renderer')])
    .find((d) => existsSync(path.join(d, 'index.html')) && d.split(path.sep).includes('dist'));
  const demosDir = findDemosDir(roots.map((d) => path.join(d, 'assets', 'demo')));
  return { ...(staticDir && { staticDir }), ...(demosDir && { demosDir }) };
}
