/**
 * Issue 20, point 4, unit level: every secret of the node-file corpus (fixtures/secret-corpus,
 * each case with its upstream source) is hidden by the redactor its kind goes through —
 * redactFile for files, redactArgs for process arguments, redactCommandLine for Windows
 * service command lines — and not one other byte changes. app/cli/commands/collect-corpus.test.ts
 * runs the same corpus through `collect`.
 */
import { describe, expect, it } from 'vitest';
import {
  CORPUS,
  markedTexts,
  planted,
  redacted,
  secretsOf,
} from '../../../fixtures/secret-corpus/corpus';
import { redactFile } from '.';
import { redactArgs, redactCommandLine } from '../redact';
import { redactFreeTextBytes } from './free-text';
import { plainFreeText } from '.';

const label = (c: (typeof CORPUS)[number]): string =>
  c.kind === 'file'
    ? c.path
    : c.kind === 'process'
      ? `process ${c.args[0]}`
      : `service ${c.service}`;

describe('the node-file secret corpus', () => {
  it('holds at least 100 secret values, each case with its upstream source', () => {
    const values = CORPUS.flatMap((c) => markedTexts(c).flatMap(secretsOf));
    expect(values.length).toBeGreaterThanOrEqual(100);
    expect(new Set(values).size).toBe(values.length);
    for (const c of CORPUS) expect(c.source.length, label(c)).toBeGreaterThan(20);
  });

  it.each(CORPUS.map((c) => [label(c), c] as const))(
    '%s: every value hidden, nothing else',
    (_l, c) => {
      if (c.kind === 'file') {
        const data = Buffer.from(planted(c.text));
        const out = redactFile(c.path, data);
        expect(out.data.toString()).toBe(redacted(c.text));
        expect(out.redactions.length).toBeGreaterThanOrEqual(secretsOf(c.text).length > 0 ? 1 : 0);
        // A log takes the byte path when it is large: the same answer there.
        if (plainFreeText(c.path, data))
          expect(redactFreeTextBytes(c.path, data)?.data.toString()).toBe(redacted(c.text));
      } else if (c.kind === 'process') {
        const out = redactArgs('p', c.args.map(planted));
        expect(out.args).toEqual(c.args.map(redacted));
        expect(out.redactions.length).toBe(c.args.flatMap(secretsOf).length);
      } else {
        for (const t of [c.imagePath, c.nssmParameters])
          if (t !== undefined) expect(redactCommandLine('k', planted(t)).line).toBe(redacted(t));
      }
    },
  );
});

describe('false positives the broader patterns must not make', () => {
  const keep = [
    'I0502 09:18:40.000003    1234 flags.go:64] FLAG: --token-ttl="24h0m0s"',
    'kubeadm join 10.0.0.1:6443 --discovery-token-ca-cert-hash sha256:0123456789abcdef',
    '--password-file=/etc/secret/pw --tls-private-key-file=/etc/kubelet.key --bootstrap-kubeconfig=/x',
    'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE AWS_WEB_IDENTITY_TOKEN_FILE=/var/run/secrets/token',
    'time="x" level=error msg="failed to get token: the server has asked for the client to provide credentials"',
    'msg="failed authorization: the server rejected the request"',
    'url="https://registry.example.com/v2/?scope=pull&service=registry" ref=docker.io/library/nginx@sha256:abc',
    'ssh://git@github.com:22/org/repo.git',
    'X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20240502 X-Amz-SignedHeaders=host',
    'signal: terminated (sigterm) in the shim',
  ];
  it.each(keep)('%s', (line) => {
    const data = Buffer.from(`${line}\n`);
    expect(redactFile('/var/log/containerd.log', data).data.toString()).toBe(`${line}\n`);
  });
});
