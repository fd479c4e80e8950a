/**
 * Lays a FakeNodeSpec out for the REAL collect.ps1 in pwsh (testing/mock-node/): the node's files
 * and folders under <dir>/C, its pipes as entries of <dir>/pipes, version stubs (a shell script
 * printing the spec's `--version` text) where collect.ps1 looks for each binary, and the spec
 * JSON that Install-MockWindowsNode loads (HNS lists, Win32_Service/Win32_Process records, the
 * OS version in the registry). The scan then runs collect.ps1 unchanged, with nodeRoot mapping C:
 * and the pipe listing to these folders.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { splitWindowsCommandLine } from '../command-line';
import { DEFAULT_VERSION_PROBES, type NodeRoot } from '../collect-input';
import type { FakeNodeSpec } from './fake-node';
import { MOCK_NODE_DIR, psQuote } from './pwsh';

export interface MockNodeLayout {
  specPath: string;
  nodeRoot: NodeRoot;
  /** The PowerShell that installs this node's mocks in a session. */
  installScript: string;
}

export interface MockNodeOptions {
  /** Which HNS modules the node has (default: the built-in HostNetworkingService only). */
  hnsModules?: ('builtin' | 'v2')[];
  /** Whether vmcompute.dll's HNSCall answers (default yes, as on every node with HNS). */
  hnsCall?: boolean;
}

export function materializeMockNode(
  spec: FakeNodeSpec,
  dir: string,
  opts: MockNodeOptions = {},
): MockNodeLayout {
  const drive = join(dir, 'C');
  const pipes = join(dir, 'pipes');
  mkdirSync(drive, { recursive: true });
  mkdirSync(pipes, { recursive: true });
  const local = (nodePath: string): string =>
    join(drive, ...nodePath.replace(/^[A-Za-z]:\\/, '').split('\\'));
  const put = (nodePath: string, data: string | Buffer): string => {
    const p = local(nodePath);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, data);
    return p;
  };
  for (const [p, data] of Object.entries(spec.files ?? {})) put(p, data);
  for (const [d, names] of Object.entries(spec.dirs ?? {})) {
    mkdirSync(local(d), { recursive: true });
    for (const n of names) put(`${d.replace(/\\+$/, '')}\\${n}`, '');
  }
  for (const name of spec.pipes ?? []) writeFileSync(join(pipes, name), '');

  const processes = (spec.processes ?? []).map((p) => ({
    Name: p.name,
    ProcessId: p.pid,
    ParentProcessId: 0,
    CommandLine: p.commandLine,
    ExecutablePath: splitWindowsCommandLine(p.commandLine)[0] ?? null,
  }));
  for (const probe of DEFAULT_VERSION_PROBES) {
    const text = spec.versions?.[probe.component];
    if (text === undefined) continue;
    const running = processes.find((p) => p.Name.toLowerCase() === probe.exe.toLowerCase());
    const at = running?.ExecutablePath ?? probe.candidates[0];
    if (at === undefined) continue;
    const stub = put(at, `#!/bin/sh\nprintf '%s\\r\\n' ${shQuote(text)}\n`);
    chmodSync(stub, 0o755);
  }

  const [major, minor, build] = (spec.osVersion ?? '10.0.20348').split('.');
  const mock = {
    hnsModules: opts.hnsModules ?? ['builtin'],
    hnsCall: opts.hnsCall ?? true,
    hns: spec.hns ?? { networks: [], endpoints: [], namespaces: [], policyLists: [] },
    services: (spec.services ?? [])
      .filter((s) => s.state !== undefined)
      .map((s) => ({
        Name: s.name,
        State: s.state,
        StartMode: 'Auto',
        PathName: s.pathName ?? '',
        ProcessId: 0,
        ExitCode: s.exitCode ?? 0,
      })),
    processes,
    registry: {
      'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion': {
        CurrentMajorVersionNumber: Number(major),
        CurrentMinorVersionNumber: Number(minor),
        CurrentBuildNumber: build,
      },
      ...serviceKeys(spec),
    },
  };
  const specPath = join(dir, 'mock-node.json');
  writeFileSync(specPath, JSON.stringify(mock));
  return {
    specPath,
    nodeRoot: { drives: { C: drive }, pipes },
    installScript: [
      `Import-Module ${psQuote(join(MOCK_NODE_DIR, 'MockWindowsNode.psm1'))} -Force`,
      `Install-MockWindowsNode -SpecPath ${psQuote(specPath)}`,
    ].join('\n'),
  };
}

/** The services' registry keys as collect.ps1 reads them (ImagePath; nssm's Parameters). */
function serviceKeys(spec: FakeNodeSpec): Record<string, unknown> {
  const keys: Record<string, unknown> = {};
  for (const s of spec.services ?? []) {
    if (s.state === undefined) continue;
    const key = `HKLM:\\SYSTEM\\CurrentControlSet\\Services\\${s.name}`;
    if (s.registryDenied) {
      keys[key] = 'denied';
      keys[`${key}\\Parameters`] = 'denied';
      continue;
    }
    if (s.imagePath !== undefined) keys[key] = { ImagePath: s.imagePath };
    if (s.nssm)
      keys[`${key}\\Parameters`] = {
        Application: s.nssm.application,
        AppParameters: s.nssm.parameters ?? '',
        AppDirectory: s.nssm.directory ?? '',
        AppStderr: s.nssm.stderr ?? '',
      };
  }
  return keys;
}

function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
