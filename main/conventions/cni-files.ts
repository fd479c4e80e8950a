/**
 * Names and places every part of the engine agrees on: which CNI file names a runtime loads, how
 * a disabled one is named, the order runtimes read them in, and the well-known folders where CNI
 * configs and plugins live. Probes use them to read a node, rules to judge it; neither owns them.
 */
export const LOADABLE_EXTENSIONS = ['.conf', '.conflist', '.json'] as const;
export const DISABLED_SUFFIXES = ['.disabled', '.mk_disabled', '.cilium_bak'] as const;

/** `10-calico.conflist.mk_disabled` → `10-calico.conflist`, or undefined. */
export function disabledOriginal(name: string): string | undefined {
  for (const s of DISABLED_SUFFIXES) {
    if (name.endsWith(s)) {
      const orig = name.slice(0, -s.length);
      return LOADABLE_EXTENSIONS.some((e) => orig.toLowerCase().endsWith(e)) ? orig : undefined;
    }
  }
  return undefined;
}

/** Byte-wise order, identical to Go's sort.Strings on the UTF-8 names (docs/knowledge/cni-loading.md#containerds-loader step 3). */
export function byteOrder(a: string, b: string): number {
  // Below U+D800 a UTF-16 unit is the code point, and UTF-8 keeps code point order: most names
  // are compared without encoding them (sorting 2,000 names made ~44,000 Buffers). Anything at
  // or past the surrogates (pairs, lone ones that UTF-8 writes as U+FFFD) is compared encoded.
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x >= 0xd800 || y >= 0xd800) return encodedOrder(a, b);
    if (x !== y) return x < y ? -1 : 1;
  }
  // One is a prefix of the other, and its UTF-8 is a prefix of the other's.
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function encodedOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Other conf dirs a cluster CNI may have written to (rules.md cni.dir.mismatch, docs/knowledge/node-layouts.md#distributions-with-other-paths). */
export const WELL_KNOWN_CONF_DIRS = {
  linux: [
    '/etc/cni/net.d',
    '/etc/cni/net.mk',
    '/var/lib/rancher/k3s/agent/etc/cni/net.d',
    '/var/lib/rancher/rke2/agent/etc/cni/net.d',
  ],
  windows: [
    'C:\\etc\\cni\\net.d',
    'C:\\Program Files\\containerd\\cni\\conf',
    'C:\\k\\cni\\config',
  ],
} as const;

export const WELL_KNOWN_BIN_DIRS = {
  linux: ['/opt/cni/bin', '/usr/lib/cni', '/usr/libexec/cni'],
  windows: ['C:\\opt\\cni\\bin', 'C:\\Program Files\\containerd\\cni\\bin', 'C:\\k\\cni'],
} as const;
