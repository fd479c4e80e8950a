/**
 * One run of the node agent (scripts/agent.sh) over a transport, asked many questions. Questions
 * asked in the same turn of the event loop go out in ONE write (an exchange); answers come back in
 * order. The program runs once per session: `runs` counts program starts (round trips to the
 * node), `exchanges` counts batches sent on it.
 */
import { AGENT_SH } from './scripts/agent-sh';
import { AgentParser, type AgentAnswer } from './agent-protocol';
import type { NodeProcess, Transport } from './transport';

export type AgentRequest =
  | { op: 'stat'; path: string }
  | { op: 'read'; path: string; max: number }
  | { op: 'tail'; path: string; bytes: number }
  | { op: 'list'; path: string; max: number }
  | { op: 'procs' }
  | { op: 'node' }
  | { op: 'services'; names: readonly string[] }
  | { op: 'journal'; unit: string; lines: number }
  | { op: 'version'; path: string }
  | { op: 'which'; program: string }
  | { op: 'crictl'; endpoint: string };

const UNIT = /^[A-Za-z0-9][A-Za-z0-9@._-]{0,127}$/;

/** Why a request cannot be sent (paths are node data: a newline would split the request). */
export function requestProblem(r: AgentRequest): string | undefined {
  const path = 'path' in r ? r.path : undefined;
  if (path !== undefined) {
    if (!path.startsWith('/')) return `${JSON.stringify(path)} is not an absolute path`;
    if (/[\n\r\0]/.test(path)) return 'a path with a newline or NUL cannot be asked for';
    if (path.length > 4096) return 'the path is too long';
  }
  if (r.op === 'services' && !r.names.every((n) => UNIT.test(n))) return 'invalid unit name';
  if (r.op === 'journal' && !UNIT.test(r.unit)) return 'invalid unit name';
  if (r.op === 'which' && !/^[a-z0-9][a-z0-9_.-]{0,63}$/.test(r.program))
    return 'invalid program name';
  // Unquoted words in the agent split on spaces; a plain unix socket path is all crictl needs.
  if (r.op === 'crictl' && !/^unix:\/\/\/[A-Za-z0-9._/-]{1,200}$/.test(r.endpoint))
    return 'only a plain unix:// endpoint is handed to crictl';
  return undefined;
}

function encode(r: AgentRequest): string {
  switch (r.op) {
    case 'stat':
    case 'version':
      return `${r.op}\n${r.path}\n`;
    case 'read':
      return `read\n${r.path}\n${Math.max(1, Math.floor(r.max))}\n`;
    case 'tail':
      return `tail\n${r.path}\n${Math.max(1, Math.floor(r.bytes))}\n`;
    case 'list':
      return `list\n${r.path}\n${Math.max(1, Math.floor(r.max))}\n`;
    case 'procs':
    case 'node':
      return `${r.op}\n`;
    case 'services':
      return `services\n${r.names.map((n) => `${n}.service`).join(' ')}\n`;
    case 'journal':
      return `journal\n${r.unit}\n${Math.max(1, Math.floor(r.lines))}\n`;
    case 'which':
      return `which\n${r.program}\n`;
    case 'crictl':
      return `crictl\n${r.endpoint}\n`;
  }
}

export class AgentSession {
  private proc: NodeProcess | undefined;
  private parser: AgentParser | undefined;
  private readonly waiting: { resolve: (a: AgentAnswer) => void; reject: (e: Error) => void }[] =
    [];
  private queue: string[] = [];
  private flushScheduled = false;
  private failure: Error | undefined;
  /** The stream could not be parsed: nothing more is read from it. */
  private broken = false;
  private stderr = '';
  private bye: (() => void) | undefined;
  runs = 0;
  exchanges = 0;

  constructor(private readonly transport: Transport) {}

  private start(): void {
    if (this.proc) return;
    this.runs++;
    const p = this.transport.spawn(['sh', '-c', AGENT_SH]);
    this.proc = p;
    this.parser = new AgentParser(
      (a) => this.waiting.shift()?.resolve(a),
      () => this.bye?.(),
    );
    p.stdout.on('data', (b: Buffer) => {
      if (this.broken) return;
      try {
        this.parser?.push(b);
      } catch (e) {
        this.broken = true;
        this.fail(new Error(`the node agent's answer could not be read: ${(e as Error).message}`));
        p.kill();
      }
    });
    p.stderr.on('data', (b: Buffer) => {
      if (this.stderr.length < 8192) this.stderr += b.toString('utf8');
    });
    void p.exit.then((x) => {
      const why = this.stderr.trim().split('\n').slice(-3).join(' ').slice(0, 500);
      this.fail(
        new Error(
          `the program on the node ended (${x.signal ?? `exit ${x.code}`})${why ? `: ${why}` : ''}`,
        ),
      );
    });
  }

  private fail(e: Error): void {
    this.failure ??= e;
    for (const w of this.waiting.splice(0)) w.reject(this.failure);
  }

  ask(r: AgentRequest): Promise<AgentAnswer> {
    const problem = requestProblem(r);
    if (problem) return Promise.reject(new Error(problem));
    if (this.failure) return Promise.reject(this.failure);
    this.start();
    return new Promise<AgentAnswer>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.queue.push(encode(r));
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /**
   * Sends what is queued now rather than at the end of this turn of the event loop: a caller about
   * to do tens of milliseconds of synchronous work (loading the engine) lets the node start answering.
   */
  flush(): void {
    this.flushScheduled = false;
    if (this.queue.length === 0 || !this.proc) return;
    const text = this.queue.join('');
    this.queue = [];
    this.exchanges++;
    this.proc.stdin.write(text);
  }

  async close(): Promise<void> {
    const p = this.proc;
    if (!p) return;
    this.failure ??= new Error('the session was closed');
    // The agent's goodbye means the shell on the node has run its last command; the client's own
    // teardown (container exec, ssh) then goes on without us waiting for it.
    const said = new Promise<'bye'>((resolve) => (this.bye = () => resolve('bye')));
    p.stdin.end('exit\n');
    const timer = setTimeout(() => p.kill(), 3000);
    const how = await Promise.race([said, p.exit]);
    clearTimeout(timer);
    if (how === 'bye') p.detach?.();
  }
}
