/**
 * The runtime's own CRI answers from a node reached through a transport: a local unix socket (in
 * a private 0700 directory) whose every connection is piped to `socat - UNIX-CONNECT:<socket>`
 * run on the node, so the doctor's own gRPC client asks the node's runtime exactly as a local
 * scan does ("grpc over socat"). Where the node has no socat the answers are unknown, with why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CriEntry } from '../../shared/model/cri';
import { endpointToPath } from '../conventions/endpoint';
import { RELAYABLE } from './agent-session';
import { endProgram, type NodeProcess, type Transport } from './transport';

export interface RelayStats {
  connections: number;
  /** socat programs started on the node for connections (not counting a handed-over run). */
  runs?: number;
  /** socat already running on the node, per node socket path (see offerRelay). */
  warm?: Map<string, NodeProcess>;
}

/**
 * A socat already running on the node for `nodePath` — the agent's own run, handed over at its
 * end (AgentSession.handOver) — is what the first connection to that socket takes instead of
 * starting one; an unused one is ended by closeWarm().
 */
export function offerRelay(stats: RelayStats, nodePath: string, p: NodeProcess): void {
  stats.warm ??= new Map();
  if (stats.warm.has(nodePath)) return endProgram(p);
  p.stderr.resume();
  stats.warm.set(nodePath, p);
  void p.exit.then(() => {
    if (stats.warm?.get(nodePath) === p) stats.warm.delete(nodePath);
  });
}

export function closeWarm(stats: RelayStats): void {
  // Ended, not killed: socat ends on EOF and its client then removes its exec session.
  for (const p of stats.warm?.values() ?? []) endProgram(p);
  stats.warm?.clear();
}

export async function probeThroughRelay(
  transport: Transport,
  endpoints: readonly string[],
  deadlineMs: number,
  stats: RelayStats,
): Promise<CriEntry[]> {
  const { probeCriEndpoint } = await import('../cri/client');
  return Promise.all(
    endpoints.map(async (endpoint): Promise<CriEntry> => {
      const parsed = endpointToPath(endpoint);
      const nodePath = parsed.kind === 'unix' ? parsed.path : undefined;
      if (nodePath === undefined || !RELAYABLE.test(nodePath))
        return {
          endpoint,
          api: null,
          error: {
            code: 2,
            message: `${endpoint} cannot be relayed to the node (not a plain unix socket path)`,
          },
        };
      const relay = await openRelay(transport, nodePath, stats);
      try {
        const entry = await probeCriEndpoint(`unix://${relay.path}`, {
          deadlineMs,
          listSandboxes: true,
          // A running runtime's version is taken from its socket, not its binary (snapshot.ts).
          containerdVersion: true,
        });
        return rewrite(entry, endpoint, relay.path, nodePath);
      } finally {
        await relay.close();
      }
    }),
  );
}

/** The answer as the node would have given it: its endpoint, its socket path in messages. */
function rewrite(e: CriEntry, endpoint: string, local: string, nodePath: string): CriEntry {
  const out: CriEntry = { ...e, endpoint };
  if (e.error) out.error = { ...e.error, message: e.error.message.split(local).join(nodePath) };
  return out;
}

interface Relay {
  path: string;
  close(): Promise<void>;
}

async function openRelay(t: Transport, nodePath: string, stats: RelayStats): Promise<Relay> {
  const dir = mkdtempSync(join(tmpdir(), 'cnd-cri-'));
  const path = join(dir, 'cri.sock');
  const sockets = new Set<Socket>();
  const programs = new Set<NodeProcess>();
  const server: Server = createServer((conn) => {
    stats.connections++;
    sockets.add(conn);
    const warm = stats.warm?.get(nodePath);
    if (warm) stats.warm?.delete(nodePath);
    if (!warm) stats.runs = (stats.runs ?? 0) + 1;
    const p = warm ?? t.spawn(['socat', '-', `UNIX-CONNECT:${nodePath}`]);
    programs.add(p);
    conn.pipe(p.stdin);
    p.stdout.pipe(conn);
    p.stderr.resume();
    // The gRPC connection is over: socat is ended by EOF, its client let clean up (endProgram).
    conn.on('error', () => endProgram(p));
    conn.on('close', () => endProgram(p));
    void p.exit.then(() => {
      programs.delete(p);
      conn.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  return {
    path,
    close: async () => {
      for (const s of sockets) s.destroy();
      for (const p of programs) endProgram(p);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
