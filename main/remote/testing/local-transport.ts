/**
 * A transport whose "node" is this machine: the program runs here, as a child process, with a
 * chosen shell (sh, or `busybox sh` for the busybox-only case). Tests compare what the node
 * agent answers with what LinuxHost reads directly from the same files.
 */
import type { Target } from '../../../shared/target';
import { spawnClient, type NodeProcess, type Transport } from '../transport';

export class LocalShellTransport implements Transport {
  readonly name = 'local shell';
  readonly target: Target = { kind: 'container', engine: 'podman', name: 'this-machine' };
  spawned: string[][] = [];
  /** What was written to each spawned program's stdin, in spawn order. */
  written: string[][] = [];
  /** The spawned programs themselves, in spawn order (a test can watch one exit). */
  processes: NodeProcess[] = [];

  constructor(private readonly shell: readonly string[] = []) {}

  async prepare(): Promise<void> {}

  spawn(argv: readonly string[]): NodeProcess {
    this.spawned.push([...argv]);
    const writes: string[] = [];
    this.written.push(writes);
    const [cmd, ...rest] = [...this.shell, ...argv];
    const p = spawnClient(cmd as string, rest);
    const write = p.stdin.write.bind(p.stdin) as (chunk: unknown, ...rest: unknown[]) => boolean;
    p.stdin.write = ((chunk: unknown, ...more: unknown[]) => {
      writes.push(String(chunk));
      return write(chunk, ...more);
    }) as typeof p.stdin.write;
    this.processes.push(p);
    return p;
  }

  async dispose(): Promise<void> {}
}
