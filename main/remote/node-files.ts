/**
 * File operations on a node through its transport (scripts/node-files-sh.ts): what a repair
 * over ssh or a kubectl debug pod does to the node's own file system, one program run each.
 * Answers are node data: parsed strictly, a malformed one is an error, never a guess.
 */
import type { NodeStat } from '../repairs/node-fs';
import { NODE_FILES_SH } from './scripts/node-files-sh';
import { runOnNode, type Transport } from './transport';

export class NodeFileError extends Error {
  constructor(
    message: string,
    readonly code: 'ENOENT' | 'EEXIST' | 'UNSAFE' | 'OTHER',
  ) {
    super(message);
  }
}

const CODES = { 3: 'ENOENT', 4: 'EEXIST', 5: 'UNSAFE' } as const;
const KINDS = new Set(['file', 'dir', 'symlink', 'other']);

/** Only absolute paths without newline or NUL travel as words (a path is never an option). */
export function checkNodePath(p: string): string {
  if (!p.startsWith('/') || /[\n\r\0]/.test(p) || p.length > 4096)
    throw new NodeFileError(`${JSON.stringify(p.slice(0, 80))} is not a usable node path`, 'OTHER');
  return p;
}

export class NodeFiles {
  /** Program runs on the node, for tests and the report. */
  runs = 0;

  constructor(
    private readonly transport: Transport,
    private readonly deadlineMs = 60_000,
  ) {}

  private async op(
    name: string,
    args: readonly string[],
    stdin?: Buffer | string,
  ): Promise<string> {
    this.runs++;
    const r = await runOnNode(
      this.transport,
      ['sh', '-c', NODE_FILES_SH, 'cni-doctor-files', name, ...args],
      {
        deadlineMs: this.deadlineMs,
        ...(stdin !== undefined && { stdin }),
      },
    );
    if (r.timedOut)
      throw new NodeFileError(
        `${name} on the node did not finish within ${this.deadlineMs} ms`,
        'OTHER',
      );
    if (r.code === 0) return r.stdout.toString('utf8');
    const code = CODES[r.code as keyof typeof CODES] ?? 'OTHER';
    const why =
      this.transport.explainFailure?.(r.stderr) ??
      r.stderr.trim().split('\n').slice(-2).join(' ').slice(0, 400);
    throw new NodeFileError(
      why || `${name} ${args[0] ?? ''} failed on the node (${r.signal ?? `exit ${r.code}`})`,
      code,
    );
  }

  private async orNull<T>(p: Promise<T>): Promise<T | null> {
    try {
      return await p;
    } catch (e) {
      if (e instanceof NodeFileError && e.code === 'ENOENT') return null;
      throw e;
    }
  }

  async stat(p: string, follow: boolean): Promise<NodeStat | null> {
    const out = await this.orNull(this.op('stat', [checkNodePath(p), follow ? '1' : '0']));
    if (out === null) return null;
    const m = /^(\S+) ([0-7]{1,5}) ([0-9]+) ([0-9]+) ([0-9]+) ([0-9]+)\n?$/.exec(out);
    if (!m || !KINDS.has(m[1] as string))
      throw new NodeFileError(`stat ${p}: unexpected answer from the node`, 'OTHER');
    return {
      type: m[1] as NodeStat['type'],
      mode: parseInt(m[2] as string, 8) & 0o7777,
      uid: Number(m[3]),
      gid: Number(m[4]),
      mtimeMs: Number(m[5]) * 1000,
      size: Number(m[6]),
    };
  }

  /** Bytes and owner; `noFollow` refuses a symlink at the name (UNSAFE). Null when missing. */
  async read(p: string, noFollow: boolean): Promise<{ uid: number; data: Buffer } | null> {
    const out = await this.orNull(this.op('read', [checkNodePath(p), noFollow ? '1' : '0']));
    if (out === null) return null;
    const nl = out.indexOf('\n');
    const uid = /^[0-9]+$/.test(out.slice(0, nl)) ? Number(out.slice(0, nl)) : NaN;
    if (nl < 0 || Number.isNaN(uid))
      throw new NodeFileError(`read ${p}: unexpected answer from the node`, 'OTHER');
    return { uid, data: Buffer.from(out.slice(nl + 1).replace(/\s+/g, ''), 'base64') };
  }

  async list(d: string): Promise<string[] | null> {
    const out = await this.orNull(this.op('list', [checkNodePath(d)]));
    if (out === null) return null;
    return out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => Buffer.from(l, 'base64').toString('utf8'));
  }

  async create(p: string, data: Buffer | string, mode: number): Promise<void> {
    await this.op('create', [checkNodePath(p), mode.toString(8)], b64(data));
  }

  async replace(
    p: string,
    data: Buffer | string,
    o: { tempDir: string; tempName: string; mode: number; uid?: number; gid?: number },
  ): Promise<void> {
    if (!/^\.cni-doctor-[0-9a-f]{16}\.tmp$/.test(o.tempName))
      throw new NodeFileError('invalid temp name', 'OTHER');
    const owner = o.uid !== undefined && o.gid !== undefined ? [String(o.uid), String(o.gid)] : [];
    await this.op(
      'replace',
      [
        checkNodePath(p),
        checkNodePath(o.tempDir),
        o.tempName,
        (o.mode & 0o7777).toString(8),
        ...owner,
      ],
      b64(data),
    );
  }

  async rename(from: string, to: string): Promise<void> {
    await this.op('rename', [checkNodePath(from), checkNodePath(to)]);
  }

  async remove(p: string): Promise<void> {
    await this.op('remove', [checkNodePath(p)]);
  }

  async canWrite(p: string): Promise<boolean> {
    return this.op('canwrite', [checkNodePath(p)]).then(
      () => true,
      () => false,
    );
  }

  async realPath(p: string, follow: boolean): Promise<string> {
    const out = (await this.op('realpath', [checkNodePath(p), follow ? '1' : '0'])).replace(
      /\n$/,
      '',
    );
    return checkNodePath(out);
  }

  /** Per component (parents first): its kind, mode and owner, until the first unsafe one. */
  async walk(
    components: readonly string[],
    create: boolean,
  ): Promise<({ type: string; mode: number; uid: number } | null)[]> {
    const out = await this.op('walk', [create ? '1' : '0', ...components.map(checkNodePath)]);
    return out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        if (l === 'missing') return null;
        const m = /^(\S+) ([0-7]{1,5}) ([0-9]+)$/.exec(l);
        if (!m) throw new NodeFileError('walk: unexpected answer from the node', 'OTHER');
        return { type: m[1] as string, mode: parseInt(m[2] as string, 8), uid: Number(m[3]) };
      });
  }

  async chmod700(d: string): Promise<void> {
    await this.op('chmod700', [checkNodePath(d)]);
  }

  async fsync(p: string): Promise<void> {
    await this.op('fsync', [checkNodePath(p)]);
  }

  private euid: Promise<number> | undefined;
  /** The effective uid programs run with on the node (0 for root). */
  uid(): Promise<number> {
    this.euid ??= this.op('uid', []).then((out) => {
      const n = Number(out.trim());
      if (!/^[0-9]+$/.test(out.trim()))
        throw new NodeFileError('id -u gave an unexpected answer on the node', 'OTHER');
      return n;
    });
    return this.euid;
  }
}

function b64(data: Buffer | string): string {
  return `${(typeof data === 'string' ? Buffer.from(data, 'utf8') : data).toString('base64')}\n`;
}
