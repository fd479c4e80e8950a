/**
 * Finds the built renderer and the demo bundles whether `serve` runs from the esbuild bundle
 * (bin/cni-doctor.cjs → dist/cli.cjs), through an npx symlink, or from source (tsx, tests). It
 * starts from the running script's real path rather than import.meta, which the desktop's CJS
 * bundle of the CLI does not have.
 */
import { existsSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
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

function scriptDir(script: string | undefined): string | undefined {
  if (!script) return undefined;
  try {
    return path.dirname(realpathSync(script));
  } catch {
    return undefined;
  }
}

export function locateAssets(script: string | undefined = process.argv[1]): {
  staticDir?: string;
  demosDir?: string;
} {
  const here = scriptDir(script);
  const roots = [...(here ? ancestors(here) : []), process.cwd()];
  const staticDir = roots
    .flatMap((d) => [path.join(d, 'renderer'), path.join(d, 'dist', 'renderer')])
    .find((d) => existsSync(path.join(d, 'index.html')) && d.split(path.sep).includes('dist'));
  const demosDir = findDemosDir(roots.map((d) => path.join(d, 'assets', 'demo')));
  return { ...(staticDir && { staticDir }), ...(demosDir && { demosDir }) };
}
