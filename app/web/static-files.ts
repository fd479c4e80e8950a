/**
 * Serves the built renderer (dist/renderer). Only files inside that folder, only GET/HEAD, a fixed
 * list of content types; anything else is 404. The page holds no secret: the token lives in the
 * URL fragment, which the browser never sends.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export async function readStatic(
  root: string,
  urlPath: string,
): Promise<{ data: Buffer; type: string } | undefined> {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (rel === '/' || rel === '') rel = '/index.html';
  if (rel.includes('\0') || rel.includes('\\')) return undefined;
  const parts = rel.split('/').filter(Boolean);
  if (parts.some((p) => p === '..' || p === '.' || p.startsWith('.'))) return undefined;
  const type = TYPES[path.extname(rel).toLowerCase()];
  if (!type) return undefined;
  const abs = path.join(root, ...parts);
  const realRoot = await fsp.realpath(root).catch(() => undefined);
  const real = await fsp.realpath(abs).catch(() => undefined);
  if (!realRoot || !real || !real.startsWith(realRoot + path.sep)) return undefined;
  const st = await fsp.stat(real);
  if (!st.isFile()) return undefined;
  return { data: await fsp.readFile(real), type };
}
