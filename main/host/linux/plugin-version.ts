/**
 * Ask a CNI plugin binary which spec versions it supports: `CNI_COMMAND=VERSION <plugin>` with
 * stdin closed. The plugin only prints JSON ({"cniVersion", "supportedVersions"}) and changes
 * nothing on the node (libcni pkg/skel: VERSION ignores stdin and the network).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { PluginVersionResult } from '../host';

const TIMEOUT_MS = 3000;
const MAX_OUTPUT = 64 * 1024;

export async function runPluginVersion(path: string): Promise<PluginVersionResult> {
  // child_process (with net, dgram and streams) loads when a plugin runs, not at CLI start-up.
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    let out = '';
    let err = '';
    let settled = false;
    const done = (r: PluginVersionResult): void => {
      if (!settled) resolve(r);
      settled = true;
    };
    let child;
    try {
      child = spawn(path, [], {
        env: { CNI_COMMAND: 'VERSION', PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: TIMEOUT_MS,
      });
    } catch (e) {
      done(failure(e as NodeJS.ErrnoException));
      return;
    }
    child.stdout.on('data', (b: Buffer) => {
      if (out.length < MAX_OUTPUT) out += b.toString('utf8');
    });
    child.stderr.on('data', (b: Buffer) => {
      if (err.length < MAX_OUTPUT) err += b.toString('utf8');
    });
    child.on('error', (e: NodeJS.ErrnoException) => done(failure(e)));
    child.on('close', (code, signal) => {
      if (signal)
        return done({
          ok: false,
          problem: signal === 'SIGTERM' ? 'timeout' : 'crashed',
          message:
            signal === 'SIGTERM' ? `no answer within ${TIMEOUT_MS} ms` : `killed by ${signal}`,
        });
      // execvp hands a file the kernel refuses (ENOEXEC) to /bin/sh, which exits 126/127: an ELF
      // file that gets there is a program built for another architecture.
      if ((code === 126 || code === 127) && isElf(path))
        return done({
          ok: false,
          problem: 'wrong-architecture',
          message: `exec format error: an ELF binary for another architecture${err.trim() ? ` (${err.trim().slice(0, 200)})` : ''}`,
        });
      if (code !== 0)
        return done({
          ok: false,
          problem: 'crashed',
          message: `exit status ${code}${err.trim() ? `: ${err.trim().slice(0, 300)}` : ''}`,
        });
      done(parseVersionAnswer(out));
    });
  });
}

function isElf(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(4);
    return readSync(fd, head, 0, 4, 0) === 4 && head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function failure(e: NodeJS.ErrnoException): PluginVersionResult {
  if (e.code === 'EACCES') return { ok: false, problem: 'not-executable', message: e.message };
  if (e.code === 'ENOEXEC')
    return {
      ok: false,
      problem: 'wrong-architecture',
      message: 'exec format error: built for another architecture, or not a program',
    };
  return { ok: false, problem: 'crashed', message: e.message };
}

export function parseVersionAnswer(text: string): PluginVersionResult {
  try {
    const doc = JSON.parse(text) as { cniVersion?: unknown; supportedVersions?: unknown };
    if (typeof doc.cniVersion !== 'string') throw new Error('no cniVersion');
    // A plugin answering without supportedVersions supports 0.1.0 and 0.2.0 (libcni PluginDecoder).
    const supported = Array.isArray(doc.supportedVersions)
      ? doc.supportedVersions.filter((v): v is string => typeof v === 'string')
      : ['0.1.0', '0.2.0'];
    return { ok: true, cniVersion: doc.cniVersion, supportedVersions: supported };
  } catch {
    return {
      ok: false,
      problem: 'bad-output',
      message: `not a VERSION answer: ${text.trim().slice(0, 200) || '(empty)'}`,
    };
  }
}
