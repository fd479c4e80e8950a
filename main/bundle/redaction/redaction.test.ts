import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseToml } from '../../config/toml';
import { elideCommentLines } from '../../config/toml/comment-lines';
import { redactFile } from '.';
import { SECRET_FILES } from './secret-shapes.testutil';

function parses(format: string, text: string): boolean {
  try {
    if (format === 'json') JSON.parse(text);
    else if (format === 'toml') return parseToml(text).ok;
    else if (format === 'yaml') parseYaml(text);
    return true;
  } catch {
    return false;
  }
}

describe('redactFile: every secret shape of issue 9 item 6', () => {
  it.each(SECRET_FILES.map((f) => [f.path, f] as const))('%s', (_p, f) => {
    expect(parses(f.format, f.text), 'the sample itself must parse').toBe(true);
    const { data, redactions } = redactFile(f.path, Buffer.from(f.text));
    const out = data.toString('utf8');
    for (const s of f.secrets) expect(out, s).not.toContain(s);
    expect(out).not.toMatch(/SECRET-/);
    expect(parses(f.format, out), out).toBe(true);
    // Same line count: findings keep their line numbers.
    expect(out.split('\n').length).toBe(f.text.split('\n').length);
    expect(redactions.length).toBeGreaterThanOrEqual(1);
    for (const r of redactions) {
      expect(r.path).toBe(f.path);
      expect(r.what).toMatch(/\(line \d+\)$/);
    }
  });

  it('keeps what the scan reads and hides only values', () => {
    const calico = SECRET_FILES.find((f) => f.path.endsWith('10-calico.conflist'));
    const out = JSON.parse(redactFile(calico!.path, Buffer.from(calico!.text)).data.toString());
    expect(out.plugins[0].type).toBe('calico');
    expect(out.plugins[0].kubernetes.kubeconfig).toBe('/etc/cni/net.d/calico-kubeconfig');
    expect(out.plugins[0].policy).toEqual({
      type: 'k8s',
      k8s_auth_token: 'REDACTED',
      k8s_api_token: 'REDACTED',
    });
  });

  it('keeps the closing quote of a redacted flag value', () => {
    const text = 'Environment="KUBELET_EXTRA_ARGS=--token=abc --v=2"\nARGS="--password \'p w\'"\n';
    const out = redactFile('/etc/default/kubelet', Buffer.from(text)).data.toString();
    expect(out).toBe(
      'Environment="KUBELET_EXTRA_ARGS=--token=REDACTED --v=2"\nARGS="--password \'REDACTED\'"\n',
    );
  });

  it('names the key path of each structured redaction', () => {
    const f = SECRET_FILES.find((x) => x.path.endsWith('config.toml'))!;
    const whats = redactFile(f.path, Buffer.from(f.text)).redactions.map((r) => r.what);
    expect(whats).toContain(
      'TOML value of plugins.io.containerd.grpc.v1.cri.registry.configs.b.example.com.auth.password (line 11)',
    );
  });

  it('finds a secret in a mostly-comment config.toml (parsed with its comment lines emptied)', () => {
    const comments = Array.from({ length: 80 }, (_, i) => `  # default ${i} shown here`);
    const auth = [
      '[plugins."io.containerd.grpc.v1.cri".registry.configs."b.example.com".auth]',
      '  username = "builder" # who',
      '  password = "SECRET-pw-1"',
      "  identitytoken = 'SECRET-tok-2'",
    ];
    const text = [...comments, ...auth, ...comments].join('\n');
    expect(elideCommentLines(text), 'the comment lines are emptied for the parser').toBeDefined();
    const { data, redactions } = redactFile('/etc/containerd/config.toml', Buffer.from(text));
    const out = data.toString('utf8').split('\n');
    expect(out.join('\n')).not.toMatch(/SECRET-/);
    // Only the secrets changed: every comment is where it was, and the value's quotes too.
    expect(out.slice(0, 80)).toEqual(comments);
    expect(out.slice(-80)).toEqual(comments);
    expect(out.slice(80, 84)).toEqual([
      auth[0],
      auth[1],
      '  password = "REDACTED"',
      "  identitytoken = 'REDACTED'",
    ]);
    expect(redactions.map((r) => r.what)).toContain(
      'TOML value of plugins.io.containerd.grpc.v1.cri.registry.configs.b.example.com.auth.password (line 83)',
    );
  });

  it('leaves a file without secrets byte for byte, and non-UTF-8 bytes as they were', () => {
    const latin = Buffer.concat([
      Buffer.from('# caf'),
      Buffer.from([0xe9]),
      Buffer.from('\ntoken=abc\n'),
    ]);
    const out = redactFile('/etc/default/x', latin).data;
    expect(out).toEqual(
      Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from('\ntoken=REDACTED\n')]),
    );
    const plain = Buffer.from('{"type":"bridge","name":"x"}');
    expect(redactFile('/etc/cni/net.d/a.conf', plain)).toEqual({ data: plain, redactions: [] });
  });

  it('does not change log prose that only mentions a token', () => {
    const line = 'msg="failed to get token: the server has asked for credentials"\n';
    expect(redactFile('/var/log/x.log', Buffer.from(line)).data.toString()).toBe(line);
  });

  it('withholds a binary file that holds a private key', () => {
    const bin = Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from('-----BEGIN PRIVATE KEY-----')]);
    const r = redactFile('/x.bin', bin);
    expect(r.data.length).toBe(0);
    expect(r.redactions[0]?.what).toMatch(/withheld/);
  });
});
