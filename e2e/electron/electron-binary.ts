/**
 * Where `require('electron')` would point, worked out without calling it: on plain Node that
 * require starts a download (and throws without network), which must not happen in a test run.
 * Mirrors node_modules/electron/index.js getElectronPath().
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

export type ElectronBinary = { ok: true; path: string } | { ok: false; reason: string };

export function findElectronBinary(): ElectronBinary {
  let pkgDir: string;
  try {
    pkgDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { ok: false, reason: 'the electron package is not installed' };
  }
  const pathFile = path.join(pkgDir, 'path.txt');
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const exe = override
    ? path.join(override, name ?? 'electron')
    : name
      ? path.join(pkgDir, 'dist', name)
      : undefined;
  if (!exe)
    return {
      ok: false,
      reason: `${pathFile} is missing: the Electron binary was never downloaded (npm install does not fetch it; see docs/knowledge/lab.md#browsers-and-electron-in-ci)`,
    };
  if (!existsSync(exe)) return { ok: false, reason: `${exe} does not exist` };
  return { ok: true, path: exe };
}
