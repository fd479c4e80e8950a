/**
 * Which structured format a file is taken for, by its name (and, for YAML, its first keys).
 * Kept apart from index.ts so the log-tail worker (main/bundle/tail/) can judge a file without
 * loading the TOML and YAML parsers.
 */
function baseName(path: string): string {
  return path.split(/[\\/]/).pop()?.toLowerCase() ?? '';
}

export function looksToml(path: string): boolean {
  const name = baseName(path);
  return name.endsWith('.toml') || (name.endsWith('.conf') && /crio|containerd/i.test(path));
}

export function looksYaml(path: string, text: string): boolean {
  const name = baseName(path);
  return (
    /\.ya?ml$/.test(name) ||
    name.includes('kubeconfig') ||
    name === 'kubelet.conf' ||
    name === 'admin.conf' ||
    /^(apiVersion|kind|clusters|users):/m.test(text.slice(0, 65536))
  );
}
