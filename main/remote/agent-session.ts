/**
 * One run of the node agent (scripts/agent.sh) over a transport, asked many questions. Questions
 * asked in the same turn of the event loop go out in ONE write (an exchange); answers come back in
 * order. The program runs once per session: `runs` counts program starts (round trips to the
 * node), `exchanges` counts batches sent on it.
 *
 * The node is untrusted and may be hung: every answer has a deadline (node-deadlines.ts), and
 * every answer and the session as a whole are capped in size (answer-limits.ts). Past either, the
 * session fails with an error naming the target, and the program on the node is stopped.
 */
import { PassThrough } from 'node:stream';
import { AGENT_PROGRAM } from './agent-program';
import { AgentParser, type AgentAnswer, type SessionBudget } from './agent-protocol';
import { answerLimits, SESSION_MAX_BYTES } from './answer-limits';
import { NODE_DEADLINES, type NodeDeadlines } from './node-deadlines';
import { endProgram, type NodeProcess, type Transport } from './transport';
import { formatTarget } from '../../shared/target';

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
  | { op: 'crictl'; endpoint: string }
  /** The run's last request: socat takes the run over for a CRI socket (handOver). */
  | { op: 'relay'; path: string };

const UNIT = /^[A-Za-z0-9][A-Za-z0-9@._-]{0,127}$/;
/** A socket path socat can be given as is (its address syntax reads `,` and `:`). */
export const RELAYABLE = /^\/[A-Za-z0-9._/-]{1,200}$/;

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
  // socat reads `,` and `:` in an address as its own option syntax.
  if (r.op === 'relay' && !RELAYABLE.test(r.path))
    return `${r.path} cannot be relayed (not a plain unix socket path)`;
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
    case 'relay':
      return `relay\n${r.path}\n`;
  }
}

/** At most this many paths in one `stats` request (the agent holds them in shell variables). */
export const STATS_MAX = 256;
/** At most this many programs run side by side on the node by one `versions` request. */
export const VERSIONS_MAX = 8;

/** The request a run of the same op goes as, and how many one may hold. */
const GROUPED: Partial<Record<AgentRequest['op'], { as: string; max: number }>> = {
  stat: { as: 'stats', max: STATS_MAX },
  version: { as: 'versions', max: VERSIONS_MAX },
};

/**
 * The requests of one exchange as the agent reads them. A run of two or more stats goes as one
 * `stats` request (the agent answers each path as `stat` would, sizing every file with one wc),
 * a run of versions as one `versions` (the programs run side by side, answered in order);
 * everything else is sent as asked, in order.
 */
export function encodeBatch(reqs: readonly AgentRequest[]): string {
  let text = '';
  for (let i = 0; i < reqs.length;) {
    const op = (reqs[i] as AgentRequest).op;
    const group = GROUPED[op];
    let n = 0;
    while (group && n < group.max && reqs[i + n]?.op === op) n++;
    if (group && n >= 2) {
      const paths = reqs.slice(i, i + n).map((r) => (r as { path: string }).path);
      text += `${group.as}\n${n}\n${paths.join('\n')}\n`;
      i += n;
    } else {
      text += encode(reqs[i] as AgentRequest);
      i++;
    }
  }
  return text;
}

/** The session could not go on: the node hung, or sent more than it was asked for. */
export class NodeSessionError extends Error {}

interface Waiting {
  req: AgentRequest;
  resolve: (a: AgentAnswer) => void;
  reject: (e: Error) => void;
}

export interface AgentSessionOptions extends Partial<NodeDeadlines> {
  /** Bytes the whole session may receive (default SESSION_MAX_BYTES). */
  maxSessionBytes?: number;
}

export class AgentSession {
  private proc: NodeProcess | undefined;
  private parser: AgentParser | undefined;
  private readonly waiting: Waiting[] = [];
  private readonly budget: SessionBudget;
  private readonly deadlines: NodeDeadlines;
  private timer: NodeJS.Timeout | undefined;
  /** When the answer at the head of the queue became due (sent, and the one before it in). */
  private headDueAt = 0;
  /** Time spent waiting on the node before the current wait, and when the current one began. */
  private waitedMs = 0;
  private waitingSince: number | undefined;
  /** Asked and not sent yet, in the order asked (see flush: a `version` may be held back). */
  private queue: Waiting[] = [];
  private flushScheduled = false;
  private failure: Error | undefined;
  /** The stream could not be parsed: nothing more is read from it. */
  private broken = false;
  private stderr = '';
  private bye: (() => void) | undefined;
  /** A relay was asked (handOver): nothing more may be asked of this run. */
  private handingOver = false;
  /** The relayed socket's bytes, once the agent handed its run to socat. */
  private relayed: PassThrough | undefined;
  runs = 0;
  exchanges = 0;
  /** Called once when the session fails early (a deadline, a cap, a broken stream). */
  onFailed: (() => void) | undefined;

  constructor(
    private readonly transport: Transport,
    opts: AgentSessionOptions = {},
  ) {
    this.budget = { limit: opts.maxSessionBytes ?? SESSION_MAX_BYTES, used: 0 };
    this.deadlines = {
      answerMs: opts.answerMs ?? NODE_DEADLINES.answerMs,
      sessionMs: opts.sessionMs ?? NODE_DEADLINES.sessionMs,
    };
  }

  /** The target, for messages: `container:podman/node1 (podman exec)`. */
  get targetName(): string {
    return `${formatTarget(this.transport.target)} (${this.transport.name})`;
  }

  /** Bytes received from the node so far (decoded blocks and names). */
  get receivedBytes(): number {
    return this.budget.used;
  }

  /** Why the session ended early (a deadline, a cap, a broken stream), if it did. */
  get failed(): NodeSessionError | undefined {
    return this.failure instanceof NodeSessionError ? this.failure : undefined;
  }

  private start(): void {
    if (this.proc) return;
    this.runs++;
    const p = this.transport.spawn(AGENT_PROGRAM);
    this.proc = p;
    this.parser = new AgentParser(
      (a) => this.answered(a),
      () => this.bye?.(),
      (op) => {
        const head = this.waiting[0];
        if (!head) throw new Error('an answer nobody asked for');
        if (head.req.op !== op)
          throw new Error(
            `an answer to ${JSON.stringify(op.slice(0, 20))} instead of ${head.req.op}`,
          );
        return answerLimits(head.req);
      },
      this.budget,
      () => {
        if (this.waiting[0]?.req.op !== 'relay') throw new Error('a relay nobody asked for');
        const socket = new PassThrough();
        this.relayed = socket;
        this.answered({ op: 'relay', chunks: [], names: [], values: [] });
        return (b) => socket.write(b);
      },
    );
    p.stdout.on('end', () => this.relayed?.end());
    p.stdout.on('data', (b: Buffer) => {
      if (this.broken) return;
      try {
        this.parser?.push(b);
      } catch (e) {
        this.broken = true;
        this.fail(
          new NodeSessionError(
            `${this.targetName}: the node agent's answer could not be read: ${(e as Error).message}`,
          ),
        );
        p.kill();
      }
    });
    p.stderr.on('data', (b: Buffer) => {
      if (this.stderr.length < 8192) this.stderr += b.toString('utf8');
    });
    void p.exit.then((x) => {
      const why = this.stderr.trim().split('\n').slice(-3).join(' ').slice(0, 500);
      const plain = this.transport.explainFailure?.(this.stderr);
      this.fail(
        new Error(
          plain
            ? `${formatTarget(this.transport.target)}: ${plain}`
            : `${this.targetName}: the program on the node ended (${x.signal ?? `exit ${x.code}`})${why ? `: ${why}` : ''}`,
        ),
      );
    });
  }

  private answered(a: AgentAnswer): void {
    this.waiting.shift()?.resolve(a);
    this.headDueAt = Date.now();
    this.arm();
    // Versions held back while other answers were due go out once nothing else is.
    if (this.waiting.length === 0 && this.queue.length > 0) this.scheduleFlush();
  }

  private fail(e: Error): void {
    const first = this.failure === undefined;
    this.failure ??= e;
    for (const w of this.waiting.splice(0)) w.reject(this.failure);
    for (const w of this.queue.splice(0)) w.reject(this.failure);
    this.arm();
    if (first && this.failure instanceof NodeSessionError) this.onFailed?.();
  }

  /**
   * One timer for both deadlines: the answer at the head of the queue (from when it became due),
   * and the session's total time spent waiting on the node (time with no question out — a user
   * reading a preview — does not count).
   */
  private arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const now = Date.now();
    if (this.waiting.length === 0 || this.failure) {
      if (this.waitingSince !== undefined) this.waitedMs += now - this.waitingSince;
      this.waitingSince = undefined;
      return;
    }
    this.waitingSince ??= now;
    const answerAt = this.headDueAt + this.deadlines.answerMs;
    const sessionAt = this.waitingSince + (this.deadlines.sessionMs - this.waitedMs);
    const at = Math.min(answerAt, sessionAt);
    this.timer = setTimeout(() => this.expired(answerAt <= sessionAt), Math.max(0, at - now));
  }

  private expired(answer: boolean): void {
    const head = this.waiting[0];
    const what = head ? answerLimits(head.req).what : 'an answer';
    const d = this.deadlines;
    this.fail(
      new NodeSessionError(
        answer
          ? `${this.targetName} did not answer ${what} within ${seconds(d.answerMs)} (the node may be hung; a slow node: raise --node-timeout)`
          : `${this.targetName} kept this command waiting for more than ${seconds(d.sessionMs)} in all (the node may be hung; a slow node: raise --node-session-timeout)`,
      ),
    );
    this.proc?.kill();
  }

  /** Fails the session now (nobody waits for it any more) and stops the program on the node. */
  abort(why: string): void {
    this.fail(new NodeSessionError(`${this.targetName}: ${why}`));
    this.proc?.kill();
  }

  /**
   * Hands the rest of this run to a CRI socket: the agent answers what was asked before, then
   * runs socat on `path` over the same stdin and stdout, so CRI needs no second program run
   * through the transport. Nothing can be asked of this session afterwards (the caller starts
   * another). The socket's stream, as a program on the node; or why not (the node has no socat).
   */
  async handOver(path: string): Promise<{ socket: NodeProcess } | { unavailable: string }> {
    const asked = this.ask({ op: 'relay', path });
    this.handingOver = true;
    const a = await asked;
    const p = this.proc;
    if (!this.relayed || !p) return { unavailable: a.unavailable ?? 'the relay was refused' };
    return {
      socket: {
        stdin: p.stdin,
        stdout: this.relayed,
        stderr: p.stderr,
        exit: p.exit,
        kill: () => p.kill(),
      },
    };
  }

  ask(r: AgentRequest): Promise<AgentAnswer> {
    const problem = requestProblem(r);
    if (problem) return Promise.reject(new Error(problem));
    if (this.failure) return Promise.reject(this.failure);
    if (this.handingOver)
      return Promise.reject(new Error('this run of the agent was handed to the CRI relay'));
    this.start();
    return new Promise<AgentAnswer>((resolve, reject) => {
      this.queue.push({ req: r, resolve, reject });
      this.scheduleFlush();
    });
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  /**
   * Sends what is queued now rather than at the end of this turn of the event loop: a caller about
   * to do tens of milliseconds of synchronous work (loading the engine) lets the node start answering.
   */
  flush(): void {
    this.flushScheduled = false;
    if (this.queue.length === 0 || !this.proc || this.failure) return;
    const send = this.toSend();
    if (send.length === 0) return;
    if (this.waiting.length === 0) this.headDueAt = Date.now();
    this.waiting.push(...send);
    this.arm();
    this.exchanges++;
    this.proc.stdin.write(encodeBatch(send.map((w) => w.req)));
  }

  /**
   * What goes out now, in the order it will be answered. A `version` runs a program on the node
   * (containerd's and the kubelet's are Go binaries of tens of MB, 20-100 ms each), and the agent
   * answers in order: one sent while file questions are still due would hold up their answers,
   * and the questions those answers lead to. So versions wait until nothing else is due, then go
   * together, and the agent runs them side by side (`versions`) — the runtime's own and the
   * plugins' that the conf files, read meanwhile, name. A relay goes last and takes everything.
   */
  private toSend(): Waiting[] {
    const all = this.queue;
    const holdVersions =
      !all.some((w) => w.req.op === 'relay') &&
      (this.waiting.length > 0 || all.some((w) => w.req.op !== 'version'));
    if (!holdVersions) {
      this.queue = [];
      return statsTogether(all);
    }
    this.queue = all.filter((w) => w.req.op === 'version');
    return statsTogether(all.filter((w) => w.req.op !== 'version'));
  }

  async close(): Promise<void> {
    const p = this.proc;
    if (!p) return;
    this.failure ??= new Error('the session was closed');
    if (this.relayed) {
      // socat on the node: its input ended, it ends; the client is let clean up as below.
      if (this.transport.clientCleansUp) endProgram(p);
      else {
        p.stdin.end();
        p.detach?.();
      }
      return;
    }
    // The agent's goodbye means the shell on the node has run its last command; the client's own
    // teardown (container exec, ssh) then goes on without us waiting for it.
    const said = new Promise<'bye'>((resolve) => (this.bye = () => resolve('bye')));
    p.stdin.end('exit\n');
    const timer = setTimeout(() => p.kill(), 3000);
    // Never waits for ever: a client killed on a hung node may not report its end (spawnClient).
    const late = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 8000).unref());
    const how = await Promise.race([said, p.exit, late]);
    clearTimeout(timer);
    clearTimeout(this.timer);
    if (how !== 'bye') return;
    // The client's own teardown goes on after this returns; a client that cleans up on the node
    // (podman exec) is let finish it, with this process waiting at its exit, not killed with it.
    if (this.transport.clientCleansUp) endProgram(p);
    else p.detach?.();
  }
}

/**
 * Every stat of a batch at the place of its first: a run of stats is one `stats` request, sized by
 * one `wc` (encodeBatch), where a stat between two reads (a conf file's, before its read) was a
 * `wc` of its own, ~1 ms on the node each. Nothing a batch asks changes the node, so the order
 * within it is free; the answers are awaited in the order sent.
 */
export function statsTogether<T extends { req: AgentRequest }>(batch: readonly T[]): T[] {
  const first = batch.findIndex((w) => w.req.op === 'stat');
  if (first < 0) return [...batch];
  const stats = batch.filter((w) => w.req.op === 'stat');
  const rest = batch.filter((w, i) => w.req.op !== 'stat' && i > first);
  return [...batch.slice(0, first), ...stats, ...rest];
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
