/**
 * What a plan builder reads the node through. Every read is recorded with its hash: those are the
 * plan's inputs, and the preview token names them, so apply can tell when a file changed between
 * the preview and the click (and touch nothing then).
 */
import type { PlanInput } from '../../../shared/model/repair';
import { listingSha256, sha256 } from '../hash';
import type { NodeFs } from '../node-fs';
import { PlanRefusal } from './refusal';

export interface PlanText {
  path: string;
  text: string;
  sha256: string;
  mode: number;
}

export class PlanHost {
  private readonly recorded = new Map<string, PlanInput>();
  private readonly texts = new Map<string, PlanText | null>();

  constructor(
    readonly fs: NodeFs,
    readonly os: 'linux' | 'windows',
  ) {}

  /** The node is this machine (services are real) rather than a disk under --root. */
  get live(): boolean {
    return this.fs.live;
  }

  /** Full text of a node file (never the snapshot's capped copy); null when it does not exist. */
  async text(path: string): Promise<PlanText | null> {
    if (this.texts.has(path)) return this.texts.get(path) ?? null;
    let data: Buffer | null;
    try {
      data = await this.fs.read(path);
    } catch (e) {
      throw new PlanRefusal(
        `cannot read ${path}: ${(e as NodeJS.ErrnoException).code === 'EACCES' ? 'permission denied (run as root)' : (e as Error).message}`,
      );
    }
    if (data === null) {
      this.record({ kind: 'file', path, sha256: null });
      this.texts.set(path, null);
      return null;
    }
    const text = data.toString('utf8');
    // An edit must reproduce every other byte exactly; text that does not survive UTF-8 round
    // trips (binary, other encodings) cannot be edited that way.
    if (!Buffer.from(text, 'utf8').equals(data))
      throw new PlanRefusal(`${path} is not UTF-8 text; it cannot be edited byte-exactly`);
    const st = await this.fs.stat(path, true);
    const t: PlanText = { path, text, sha256: sha256(data), mode: st?.mode ?? 0o644 };
    this.record({ kind: 'file', path, sha256: t.sha256 });
    this.texts.set(path, t);
    return t;
  }

  /** Whether a path exists (recorded: a file appearing there later changes the plan). */
  async exists(path: string): Promise<boolean> {
    const st = await this.fs.stat(path);
    const target = st?.type === 'symlink' ? await this.fs.stat(path, true) : st;
    if (st === null || target === null) {
      this.record({ kind: 'file', path, sha256: null });
      return st !== null;
    }
    if (target.type === 'file') await this.text(path);
    else this.record({ kind: 'file', path, sha256: sha256(st.type) });
    return true;
  }

  /** Directory names (recorded as a listing hash); null when the directory does not exist. */
  async list(dir: string): Promise<string[] | null> {
    const names = await this.fs.list(dir);
    this.record({ kind: 'dir', path: dir, sha256: names ? listingSha256(names) : null });
    return names;
  }

  /** On a live node every change is root's; on a node disk, only where we cannot write. */
  async needsElevation(path: string): Promise<boolean> {
    if (this.fs.live) return true;
    return !(await this.fs.canWrite(path));
  }

  /** The text a plan was computed from, for the preview's diff. */
  original(path: string): PlanText | null | undefined {
    return this.texts.get(path);
  }

  inputs(): PlanInput[] {
    return [...this.recorded.values()];
  }

  private record(input: PlanInput): void {
    const key = `${input.kind}:${input.path}`;
    if (!this.recorded.has(key)) this.recorded.set(key, input);
  }
}
