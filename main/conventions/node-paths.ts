/**
 * Native node paths and how they compare (rules.md "Paths compare normalised"). Windows paths
 * compare case-insensitively with `/` ≡ `\`; Linux `/var/run` ≡ `/run`.
 */
export type Os = 'linux' | 'windows';

export function isWindowsPath(p: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

/** Join path segments in the node's own style. */
export function joinNode(os: Os, dir: string, name: string): string {
  if (os === 'windows') return `${dir.replace(/[\\/]+$/, '')}\\${name}`;
  return dir === '/' ? `/${name}` : `${dir.replace(/\/+$/, '')}/${name}`;
}

export function dirnameNode(os: Os, p: string): string {
  const sep = os === 'windows' ? /[\\/]/ : /\//;
  const parts = p.split(sep);
  parts.pop();
  const joined = parts.join(os === 'windows' ? '\\' : '/');
  return joined === '' ? '/' : joined;
}

export function basenameNode(os: Os, p: string): string {
  const parts = p.split(os === 'windows' ? /[\\/]/ : /\//);
  return parts[parts.length - 1] ?? p;
}

/** A Linux path part that normalizing changes: empty (`//`, a trailing `/`), `.` or `..`. */
const NOT_NORMAL = /\/(?:\.\.?)?(?:\/|$)/;

/** Collapse `.`/`..`/duplicate separators; never climbs above the root. */
export function normalizeNodePath(os: Os, p: string): string {
  if (os === 'windows') {
    const m = /^([A-Za-z]):[\\/]?(.*)$/.exec(p);
    if (!m) return p.replace(/\//g, '\\');
    const stack: string[] = [];
    for (const seg of (m[2] ?? '').split(/[\\/]+/)) {
      if (seg === '' || seg === '.') continue;
      if (seg === '..') stack.pop();
      else stack.push(seg);
    }
    return `${(m[1] ?? 'C').toUpperCase()}:\\${stack.join('\\')}`;
  }
  // Already normal (absolute, no empty, `.` or `..` part, no trailing slash): most paths asked.
  if (p.charCodeAt(0) === 0x2f && !NOT_NORMAL.test(p)) return p;
  const stack: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') stack.pop();
    else stack.push(seg);
  }
  return `/${stack.join('/')}`;
}

/** The key two paths are compared by. */
export function pathKey(os: Os, p: string): string {
  const n = normalizeNodePath(os, p);
  if (os === 'windows') return n.toLowerCase();
  return n === '/var/run' || n.startsWith('/var/run/') ? n.slice(4) : n;
}

export function samePath(os: Os, a: string, b: string): boolean {
  return pathKey(os, a) === pathKey(os, b);
}

/** Resolve `rel` against the directory `base` (used for containerd relative imports). */
export function resolveNode(os: Os, base: string, rel: string): string {
  if (os === 'windows' ? isWindowsPath(rel) : rel.startsWith('/'))
    return normalizeNodePath(os, rel);
  return normalizeNodePath(os, joinNode(os, base, rel));
}

/** Bundle layout: `/etc/x` → `etc/x`; `C:\etc\x` → `C/etc/x` (bundle-format.md). */
export function nodePathToBundleRel(os: Os, p: string): string {
  const n = normalizeNodePath(os, p);
  if (os === 'windows') {
    const m = /^([A-Za-z]):\\(.*)$/.exec(n);
    if (!m) return n.replace(/\\/g, '/');
    return `${(m[1] ?? 'C').toUpperCase()}/${(m[2] ?? '').replace(/\\/g, '/')}`.replace(/\/$/, '');
  }
  return n.slice(1);
}

/** Inverse of nodePathToBundleRel. */
export function bundleRelToNodePath(os: Os, rel: string): string {
  if (os === 'windows') {
    const [drive, ...rest] = rel.split('/');
    return `${drive ?? 'C'}:\\${rest.join('\\')}`;
  }
  return `/${rel}`;
}
