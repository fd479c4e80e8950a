/**
 * Node disks for tests: a temp directory laid out like `/` (scanned with --root), and exact
 * snapshots of it (type, bytes, mode, mtime, link target) to prove "byte for byte" claims.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  lstatSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Real upstream files, copied with their source and licence (fixtures/samples/linux/README.md). */
export const SAMPLES = fileURLToPath(new URL('../../../fixtures/samples/linux/', import.meta.url));
export const sample = (name: string): string => readFileSync(path.join(SAMPLES, name), 'utf8');

export type TreeSpec = Record<
  string,
  string | { content: string; mode?: number } | { symlink: string } | { dir: true }
>;

/** Creates a node tree; keys are node paths without the leading slash. */
export function makeNodeTree(spec: TreeSpec, into?: string): string {
  const root = into ?? mkdtempSync(path.join(tmpdir(), 'cnid-node-'));
  for (const [rel, v] of Object.entries(spec)) {
    const p = path.join(root, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    if (typeof v === 'string') writeFileSync(p, v);
    else if ('dir' in v) mkdirSync(p, { recursive: true });
    else if ('symlink' in v) symlinkSync(v.symlink, p);
    else {
      writeFileSync(p, v.content);
      if (v.mode !== undefined) chmodSync(p, v.mode);
    }
  }
  return root;
}

export const EXECUTABLE = { content: '#!/bin/sh\nexit 0\n', mode: 0o755 };

/** Reference CNI plugins in a bin dir (node path without leading slash). */
export function plugins(dir: string, names: readonly string[]): TreeSpec {
  return Object.fromEntries(names.map((n) => [`${dir}/${n}`, EXECUTABLE]));
}

export interface TreeEntry {
  type: 'file' | 'dir' | 'symlink' | 'other';
  mode: number;
  sha256?: string;
  target?: string;
  mtimeMs?: number;
}

/** Every entry under root (relative paths), optionally skipping the state dir. */
export function snapshotTree(
  root: string,
  opts: { skip?: string[]; mtime?: boolean } = {},
): Record<string, TreeEntry> {
  const out: Record<string, TreeEntry> = {};
  const walk = (rel: string): void => {
    const p = path.join(root, rel);
    for (const name of readdirSync(p).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (opts.skip?.some((s) => r === s || r.startsWith(`${s}/`))) continue;
      const st = lstatSync(path.join(root, r));
      const base = { mode: st.mode & 0o7777, ...(opts.mtime && { mtimeMs: st.mtimeMs }) };
      if (st.isSymbolicLink())
        out[r] = { type: 'symlink', target: readlinkSync(path.join(root, r)), ...base };
      else if (st.isDirectory()) {
        out[r] = { type: 'dir', ...base, ...(opts.mtime && { mtimeMs: undefined }) };
        walk(r);
      } else if (st.isFile())
        out[r] = {
          type: 'file',
          sha256: createHash('sha256')
            .update(readFileSync(path.join(root, r)))
            .digest('hex'),
          ...base,
        };
      else out[r] = { type: 'other', ...base };
    }
  };
  walk('');
  return out;
}

/** Files whose names mark a half-done write (ours or anyone's). */
export function leftovers(root: string): string[] {
  return Object.keys(snapshotTree(root)).filter((r) =>
    /(^|\/)\.cni-doctor-[0-9a-f]+\.tmp$/.test(r),
  );
}

export function removeTree(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

// ---------------------------------------------------------------- scenarios

/** Docker's containerd.io config (`disabled_plugins = ["cri"]`) with a flannel cluster. */
export function criDisabledNode(): TreeSpec {
  return {
    'etc/containerd/config.toml': sample('containerd.io-default-config.toml'),
    'etc/cni/net.d/10-flannel.conflist': sample('10-flannel.conflist'),
    ...plugins('opt/cni/bin', ['flannel', 'bridge', 'portmap', 'host-local', 'loopback']),
  };
}

/** containerd 1.x v2 config; a runtime default and podman's bridge shadow flannel. */
export function shadowedNode(): TreeSpec {
  return {
    'etc/containerd/config.toml': sample('containerd-1.x-cri-config-v2.toml'),
    'etc/cni/net.d/10-containerd-net.conflist': sample('10-containerd-net.conflist'),
    'etc/cni/net.d/10-flannel.conflist': sample('10-flannel.conflist'),
    'etc/cni/net.d/00-podman-bridge.conflist': sample('87-podman-bridge.conflist'),
    ...plugins('opt/cni/bin', [
      'flannel',
      'bridge',
      'portmap',
      'host-local',
      'loopback',
      'firewall',
      'tuning',
    ]),
  };
}
