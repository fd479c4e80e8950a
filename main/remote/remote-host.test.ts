import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinuxHost } from '../host/linux-host';
import { RemoteLinuxHost, parseProcTable } from './remote-host';
import { LocalShellTransport } from './testing/local-transport';
import { NODE_SHELLS } from './testing/shells';
import { until } from '../../shared/until.testutil';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { WELL_KNOWN_BIN_DIRS, WELL_KNOWN_CONF_DIRS } from '../conventions/cni-files';
import { READ_LIMITS } from '../bundle/limits';
import { startGrpcCriServer, type FakeServer } from '../cri/fake-cri-server';

const hasSocat = ['/usr/bin/socat', '/bin/socat', '/usr/local/bin/socat'].some((p) =>
  existsSync(p),
);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cnd-agent-'));
  mkdirSync(join(dir, 'net.d'));
  writeFileSync(join(dir, 'net.d', '10-a.conflist'), '{"name":"a"}\n');
  // Names a line-based protocol would get wrong: newline, spaces, a leading dash, non-UTF-8-safe text.
  writeFileSync(join(dir, 'net.d', 'we ird\nname.conf'), 'x');
  writeFileSync(join(dir, 'net.d', '-dash.json'), '{}');
  writeFileSync(join(dir, 'net.d', 'ünï.conf'), '{}');
  writeFileSync(join(dir, 'net.d', '.hidden'), '');
  symlinkSync(join(dir, 'net.d', '10-a.conflist'), join(dir, 'net.d', '20-link.conflist'));
  symlinkSync(join(dir, 'nowhere'), join(dir, 'net.d', '30-dangling.conf'));
  writeFileSync(join(dir, 'bin.bin'), Buffer.from([0, 1, 2, 255, 10, 13, 0]));
  writeFileSync(join(dir, 'plugin'), '#!/bin/sh\n');
  chmodSync(join(dir, 'plugin'), 0o755);
  writeFileSync(join(dir, 'big.log'), 'x'.repeat(10_000) + 'END');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const shells = NODE_SHELLS;

describe.each(shells)('the node agent under %s answers like LinuxHost', (_name, shell) => {
  it('stat, read, list, tail agree with the local reader', async () => {
    const remote = new RemoteLinuxHost(new LocalShellTransport(shell));
    const local = new LinuxHost();
    try {
      const paths = [
        join(dir, 'net.d', '10-a.conflist'),
        join(dir, 'net.d', '20-link.conflist'),
        join(dir, 'net.d', '30-dangling.conf'),
        join(dir, 'net.d'),
        join(dir, 'bin.bin'),
        join(dir, 'plugin'),
        join(dir, 'missing'),
      ];
      for (const p of paths) {
        const [a, b] = [await remote.stat(p), await local.stat(p)];
        expect(a.ok, p).toBe(b.ok);
        if (a.ok && b.ok) {
          expect(a.type, p).toBe(b.type);
          if (a.type === 'file') expect([a.size, a.executable], p).toEqual([b.size, b.executable]);
        } else if (!a.ok && !b.ok) expect(a.error, p).toBe(b.error);
        const [ra, rb] = [
          await remote.readFile(p, { maxBytes: 4 }),
          await local.readFile(p, { maxBytes: 4 }),
        ];
        expect(ra, p).toEqual(rb);
      }
      const [la, lb] = [
        await remote.listDir(join(dir, 'net.d')),
        await local.listDir(join(dir, 'net.d')),
      ];
      expect(la.ok && la.entries.sort()).toEqual(lb.ok && lb.entries.sort());
      const chunks: Buffer[] = [];
      for await (const c of remote.streamFile(join(dir, 'big.log'), { tailBytes: 5 }))
        chunks.push(Buffer.from(c));
      expect(Buffer.concat(chunks).toString()).toBe('x'.repeat(2) + 'END');
      const node = await remote.node();
      expect(node.hostname).toBe((await local.node()).hostname);
      expect(remote.roundTrips).toBe(1);
    } finally {
      await remote.close();
    }
  });

  it('refuses paths the protocol cannot carry instead of sending them', async () => {
    const remote = new RemoteLinuxHost(new LocalShellTransport(shell));
    try {
      const r = await remote.readFile('/etc/x\nstat');
      expect(r.ok).toBe(false);
      expect(await remote.stat('relative/path')).toMatchObject({ ok: false });
    } finally {
      await remote.close();
    }
  });
});

describe('connecting', () => {
  it('sends the first batch before the caller goes on, not at the end of its turn', async () => {
    const t = new LocalShellTransport();
    const remote = new RemoteLinuxHost(t);
    try {
      const connecting = remote.connect();
      // Two microtask turns (prepare, then the asks): no timer or I/O callback has run yet.
      await Promise.resolve();
      await Promise.resolve();
      expect(t.written[0]?.join('')).toMatch(/^node\nprocs\n/);
      await connecting;
    } finally {
      await remote.close();
    }
  });

  it('started() settles once the agent has been started, the one program a scan runs', async () => {
    const t = new LocalShellTransport();
    const remote = new RemoteLinuxHost(t);
    try {
      const connecting = remote.connect();
      await remote.started();
      expect(t.spawned.map((a) => a[0])).toEqual(['sh']);
      await connecting;
      // Nothing else starts by itself meanwhile: CRI goes over this same run, at its end.
      await new Promise((r) => setTimeout(r, 100));
      expect(t.spawned.map((a) => a[0])).toEqual(['sh']);
    } finally {
      await remote.close();
    }
  });
});

describe.skipIf(!hasSocat)("CRI over the agent's own run", () => {
  let servers: FakeServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });
  const runtime = (version: string) => ({
    Version: () => ({ version: '0.1.0', runtimeName: 'containerd', runtimeVersion: version }),
    Status: () => ({ status: { conditions: [] }, info: {} }),
    ListPodSandbox: () => ({ items: [] }),
  });

  it('hands the agent to socat at its end: one program for the files and CRI, answers intact', async () => {
    const sock = join(dir, 'one.sock');
    servers.push(await startGrpcCriServer(sock, { 'runtime.v1': runtime('v9.9.9-one') }));
    const t = new LocalShellTransport();
    const remote = new RemoteLinuxHost(t);
    let firstExited = false;
    try {
      expect((await remote.stat(join(dir, 'plugin'))).ok).toBe(true);
      void t.processes[0]?.exit.then(() => (firstExited = true));
      const [entry] = (await remote.cri([`unix://${sock}`])) ?? [];
      expect(entry?.api).toBe('runtime.v1');
      expect(entry?.version?.runtimeVersion).toBe('v9.9.9-one');
      expect(remote.criRoute).toMatch(/^grpc through socat/);
      expect(t.spawned.map((a) => a[0])).toEqual(['sh']);
      // The relay request was the run's last; what follows it is the gRPC client's own bytes.
      const sent = (t.written[0] ?? []).join('');
      expect(sent).toContain(`relay\n${sock}\nPRI * HTTP/2.0`);
      // A question after CRI is answered by a new run, not written into the socket.
      expect((await remote.stat(join(dir, 'big.log'))).ok).toBe(true);
      expect(t.spawned.map((a) => a[0])).toEqual(['sh', 'sh']);
    } finally {
      await remote.close();
    }
    // Ended by closing its input, the handed-over run exits by itself (its client cleans up).
    await until(() => firstExited, 'the relayed run to exit once closed');
  });

  it('relays a second endpoint through a socat run of its own', async () => {
    const a = join(dir, 'a.sock');
    const b = join(dir, 'b.sock');
    servers.push(await startGrpcCriServer(a, { 'runtime.v1': runtime('v1-a') }));
    servers.push(await startGrpcCriServer(b, { 'runtime.v1': runtime('v1-b') }));
    const t = new LocalShellTransport();
    const remote = new RemoteLinuxHost(t);
    try {
      const entries = (await remote.cri([`unix://${a}`, `unix://${b}`])) ?? [];
      expect(entries.map((e) => e.version?.runtimeVersion)).toEqual(['v1-a', 'v1-b']);
      expect(t.spawned.map((x) => x[0])).toEqual(['sh', 'socat']);
    } finally {
      await remote.close();
    }
  });
});

const CONF_DIR = WELL_KNOWN_CONF_DIRS.linux[0] as string;
const confFiles = (() => {
  try {
    return readdirSync(CONF_DIR).filter((n) => /\.(conf|conflist|json)$/.test(n));
  } catch {
    return [];
  }
})();

/** The requests a stream written to the agent holds, as [op, path or first argument]. */
function requestsIn(text: string): [string, string][] {
  const lines = text.split('\n');
  const out: [string, string][] = [];
  const args: Record<string, number> = { read: 2, tail: 2, list: 2, journal: 2 };
  for (let i = 0; i < lines.length;) {
    const op = lines[i++] as string;
    if (op === '') continue;
    if (op === 'stats' || op === 'versions') {
      const n = Number(lines[i++]);
      for (let k = 0; k < n; k++) out.push([op.slice(0, -1), lines[i++] as string]);
      continue;
    }
    const n = args[op] ?? (['procs', 'node', 'exit'].includes(op) ? 0 : 1);
    out.push([op, n > 0 ? (lines[i] as string) : '']);
    i += n;
  }
  return out;
}

describe('a conf dir read ahead', () => {
  // This machine's own conf dir stands for the node's (the transport runs the agent here).
  it.skipIf(confFiles.length === 0)(
    "asks the dir's config files once the listing is in; the probe's reads come from the cache",
    async () => {
      const t = new LocalShellTransport();
      const remote = new RemoteLinuxHost(t);
      try {
        await remote.connect();
        expect((await remote.listDir(CONF_DIR)).ok).toBe(true);
        const path = `${CONF_DIR}/${confFiles[0] as string}`;
        const written = (): string => (t.written[0] ?? []).join('');
        await until(
          () => written().includes(`read\n${path}\n`),
          `the agent to be asked to read ${path}`,
        );
        const asked = requestsIn(written());
        expect(asked).toContainEqual(['stat', path]);
        expect(asked).toContainEqual(['read', path]);
        const [st, r] = [
          await remote.stat(path),
          await remote.readFile(path, { maxBytes: READ_LIMITS.configBytes }),
        ];
        expect(st.ok && r.ok).toBe(true);
        // Other read-ahead (a plugin's --version once the conf is in) may still be written after
        // this point; what must not be is a second question about this file.
        const about = (op: string): number =>
          requestsIn(written()).filter(([o, p]) => o === op && p === path).length;
        expect([about('stat'), about('read')]).toEqual([1, 1]);
      } finally {
        await remote.close();
      }
    },
  );
});

// A plugin this machine's conf dir names, in a default plugin folder (Debian: /usr/lib/cni).
const aheadPlugin = (() => {
  for (const f of confFiles) {
    let text: string;
    try {
      text = readFileSync(join(CONF_DIR, f), 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(/"type"\s*:\s*"([A-Za-z0-9._-]+)"/g))
      for (const d of WELL_KNOWN_BIN_DIRS.linux)
        if (existsSync(join(d, m[1] as string))) return join(d, m[1] as string);
  }
  return undefined;
})();

describe('plugin folders read ahead', () => {
  it.skipIf(aheadPlugin === undefined)(
    "stats a plugin folder's entries and asks a named plugin's --version before the probes do",
    async () => {
      const t = new LocalShellTransport();
      const remote = new RemoteLinuxHost(t);
      try {
        await remote.connect();
        const plugin = aheadPlugin as string;
        const written = (): [string, string][] => requestsIn((t.written[0] ?? []).join(''));
        await until(
          () => written().some(([op, p]) => op === 'version' && p === plugin),
          `the agent to be asked ${plugin} --version`,
        );
        // Asked unprompted: nothing but connect() ran. The entries' stats went as one request.
        expect(written()).toContainEqual(['stat', plugin]);
        expect((t.written[0] ?? []).join('')).toMatch(/^stats\n\d+\n/m);
        const [st, v] = [await remote.stat(plugin), await remote.pluginVersion(plugin)];
        expect(st.ok && st.executable).toBe(true);
        expect(v).toBeDefined();
        // The conf's other plugins may still be asked after this point; this one must not be again.
        const about = (op: string): number =>
          written().filter(([o, p]) => o === op && p === plugin).length;
        expect(
          [about('stat'), about('version')],
          'the probe’s own questions came from the cache',
        ).toEqual([1, 1]);
      } finally {
        await remote.close();
      }
    },
  );
});

describe('closing a session', () => {
  it("returns on the agent's goodbye, not when the client's own teardown ends", async () => {
    // The outer sh stands for `podman exec`: it keeps stdout open for 30 s after the agent exits.
    const t = new LocalShellTransport(['sh', '-c', '"$@"; exec sleep 30', 'linger']);
    const remote = new RemoteLinuxHost(t);
    expect((await remote.stat('/')).ok).toBe(true);
    const client = t.processes[0];
    expect(client).toBeDefined();
    let clientExited = false;
    void client?.exit.then(() => (clientExited = true));
    try {
      // No clock: close must come back while the client's teardown is still going on.
      await remote.close();
      expect(clientExited).toBe(false);
    } finally {
      client?.kill();
    }
  });
});

describe('parseProcTable', () => {
  it('splits head -c headers into argument vectors and keeps only relevant processes', () => {
    const raw = Buffer.concat([
      Buffer.from('==> /dev/null <==\n\n==> /proc/7/cmdline <==\n'),
      Buffer.from('/usr/bin/kubelet\0--container-runtime-endpoint=unix:///run/x.sock\0'),
      Buffer.from('\n==> /proc/9/cmdline <==\n'),
      Buffer.from('bash\0-c\0'),
      Buffer.from('\n==> /proc/12/cmdline <==\n'),
      Buffer.from('containerd\0'),
    ]);
    expect(parseProcTable(raw)).toEqual([
      {
        name: 'kubelet',
        pid: 7,
        args: ['/usr/bin/kubelet', '--container-runtime-endpoint=unix:///run/x.sock'],
      },
      { name: 'containerd', pid: 12, args: ['containerd'] },
    ]);
  });
});
