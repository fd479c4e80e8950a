/**
 * Nodes whose names are long (newcomer review, journey 4): a 244-character CNI config name that
 * the runtime loads, a 150-character network name, a containerd log line of 700 characters, and
 * a Windows node with 66 stale HNS endpoints (a finding whose evidence list is long).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_FORMAT } from '../../main/bundle/manifest';
import { BundleHost } from '../../main/host/bundle-host';
import { OLD_LOG_LINE } from './memory-node-server';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SOCK = '/run/containerd/containerd.sock';

export const LONG_CONF = `05-${'a-very-long-cni-config-name-'.repeat(8)}${'x'.repeat(14)}.conflist`;
export const LONG_NETWORK = `net-${'n'.repeat(146)}`;
export const LONG_LOG_TAIL = ` while dialing ${'\\\\.\\pipe\\cnisock-'.repeat(24)}END-OF-LINE`;

export function longNamesHost(): BundleHost {
  const conf = (name: string, type: string) =>
    Buffer.from(JSON.stringify({ cniVersion: '1.0.0', name, plugins: [{ type }] }));
  return BundleHost.fromMemory(
    'kind-node with long names',
    {
      format: BUNDLE_FORMAT,
      host: { os: 'linux', hostname: `kind-${'w'.repeat(60)}-control-plane`, elevated: true },
      processes: [
        { name: 'containerd', args: ['/usr/bin/containerd'] },
        {
          name: 'kubelet',
          args: ['/usr/bin/kubelet', `--container-runtime-endpoint=unix://${SOCK}`],
        },
      ],
      paths: { [SOCK]: { type: 'socket' } },
      logs: [{ source: 'file', path: '/var/log/containerd.log' }],
    },
    new Map([
      ['/etc/containerd/config.toml', Buffer.from('version = 2\n')],
      [`/etc/cni/net.d/${LONG_CONF}`, conf(LONG_NETWORK, 'bridge')],
      ['/etc/cni/net.d/10-kindnet.conflist', conf('kindnet', 'ptp')],
      ['/opt/cni/bin/bridge', Buffer.from('#!/bin/sh\n')],
      ['/opt/cni/bin/ptp', Buffer.from('#!/bin/sh\n')],
      ['/var/log/containerd.log', Buffer.from(`${OLD_LOG_LINE}${LONG_LOG_TAIL}\n`)],
    ]),
  );
}

/** The stale-endpoint fixture with its one stale endpoint copied to `n`. */
export async function staleEndpointsHost(n: number): Promise<BundleHost> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cni-doctor-e2e-stale-'));
  cpSync(path.join(ROOT, 'fixtures/windows/stale-endpoints-created-not-attached'), dir, {
    recursive: true,
  });
  const m = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
    hns: { endpoints: Record<string, unknown>[] };
  };
  const [first] = m.hns.endpoints;
  if (!first) throw new Error('the fixture has no HNS endpoint');
  m.hns.endpoints = Array.from({ length: n }, (_, i) => ({
    ...first,
    ID: `5e6298c2-4638-494e-be6b-${String(i).padStart(12, '0')}`,
    Name: `leaked-${i}`,
  }));
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(m));
  return BundleHost.open(dir);
}
