/**
 * One long-lived PowerShell process for the doctor, on top of node-powershell, with the failure
 * handling node-powershell lacks (docs/knowledge/windows-node.md#node-powershell, checked against its source):
 *
 * - Deadline per call. node-powershell's `invocationTimeout` only stops waiting: the command keeps
 *   running, its late output stays in the pipe and corrupts the next call. Here a call that
 *   overruns its deadline gets its shell killed (the whole process tree on Windows, via taskkill,
 *   because HNS tools run as children), and the next call starts a fresh shell.
 * - stderr does not throw. node-powershell turns any stderr byte into a rejected call and hides
 *   stdout. Here the caller decides per call (`stderr` option):
 *     'fail' (default) – any stderr output fails the call with kind 'stderr'. For repairs and
 *                        anything whose success depends on every command succeeding: PowerShell
 *                        reports non-terminating errors only on stderr, and a half-done repair
 *                        must not look done.
 *     'allow'          – stdout is returned and stderr beside it. For read-only collection whose
 *                        script captures its own errors per section, where stray stderr (a
 *                        warning, hnsdiag's usage text) must not discard everything else.
 * - The shell dying is a result, not a crash: mid-call it is kind 'exit'; between calls the next
 *   call silently starts a new shell (nothing of that call had run yet).
 * - Calls are serial (one shell), and a call's deadline starts when it starts running, not while
 *   it waits behind another call.
 *
 * Every script travels as one base64 line and runs in its own scope (shell-command.ts).
 * 'parse' is for callers that go on to parse stdout (collect.ts); run() itself never returns it.
 */
import { windowsPowerShellPath } from '../system-executables';
import { spawn } from 'node:child_process';
import type { PowerShell } from 'node-powershell';
import { pinnedShellClass } from './pinned-shell';
import { toShellCommand } from './shell-command';
import { pidFromInitOutput, SESSION_INIT_SCRIPT } from './session-init';
import {
  LANGUAGE_PROBE,
  languageModeFrom,
  languageModeRefusal,
  type LanguageMode,
} from './language-mode';

export type RunFailureKind = 'timeout' | 'stderr' | 'exit' | 'parse';
export type RunFailure = { ok: false; kind: RunFailureKind; message: string };
export type RunResult = { ok: true; stdout: string; stderr?: string } | RunFailure;

export interface RunOptions {
  deadlineMs: number;
  /** What stderr output means for this call; see the module comment. Default 'fail'. */
  stderr?: 'fail' | 'allow';
}

export interface SessionOptions {
  /** The shell to start. Default: Windows PowerShell 5.1 (`powershell.exe`) on Windows, where the
   * HostNetworkingService module is native (docs/knowledge/windows-hns.md#three-powershell-surfaces), else `pwsh`. Tests pass a stand-in. */
  executable?: string;
  /** Deadline for starting a shell and running its init script. Default 30 s. */
  startDeadlineMs?: number;
  /** Arguments before the shell's own (`exec -i POD -- powershell.exe` when executable is kubectl). */
  leadingArgs?: readonly string[];
  /**
   * Ask the shell's language mode (language-mode.ts) once, in a process of its own, before the
   * first shell starts, and refuse with one clear reason when it is not FullLanguage. The value
   * names the node in that reason ("This node"). Off for a workstation's own shell (remoting).
   */
  languageProbe?: string;
}

/** The script-visible contract, so collectors can be tested with a stub. */
export interface ScriptRunner {
  run(script: string, opts: RunOptions): Promise<RunResult>;
}

interface LiveShell {
  shell: PowerShell;
  pid: number | undefined;
  dead: boolean;
}

const KILL_WAIT_MS = 3000;
const MAX_MESSAGE = 8000;

export class PowerShellSession implements ScriptRunner {
  private readonly executable: string;
  private readonly startDeadlineMs: number;
  private readonly leadingArgs: readonly string[];
  private live: LiveShell | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private started = 0;
  private readonly languageProbe: string | undefined;
  private languageChecked = false;

  constructor(opts: SessionOptions = {}) {
    this.languageProbe = opts.languageProbe;
    // On Windows, System32's powershell.exe by its absolute path, never one found on PATH.
    this.executable =
      opts.executable ?? (process.platform === 'win32' ? windowsPowerShellPath() : 'pwsh');
    this.startDeadlineMs = opts.startDeadlineMs ?? 30_000;
    this.leadingArgs = opts.leadingArgs ?? [];
  }

  /** PID of the current shell, if one is running (diagnostics and tests). */
  get pid(): number | undefined {
    return this.live && !this.live.dead ? this.live.pid : undefined;
  }

  /** How many shells this session has started so far. */
  get shellsStarted(): number {
    return this.started;
  }

  run(script: string, opts: RunOptions): Promise<RunResult> {
    const task = this.tail.then(() => this.runNow(script, opts));
    this.tail = task.catch(() => undefined);
    return task;
  }

  /** Ends the current shell. A later run() starts a new one. */
  dispose(): Promise<void> {
    const task = this.tail.then(async () => {
      const live = this.live;
      this.live = undefined;
      if (live) await this.stop(live, 'SIGTERM');
    });
    this.tail = task.catch(() => undefined);
    return task;
  }

  private async runNow(script: string, opts: RunOptions): Promise<RunResult> {
    const live = await this.ensureShell();
    if (!('shell' in live)) return live;
    return this.invoke(live, toShellCommand(script), opts.deadlineMs, opts.stderr ?? 'fail');
  }

  private async ensureShell(): Promise<LiveShell | RunFailure> {
    if (this.live && !this.live.dead) return this.live;
    this.live = undefined;
    if (this.languageProbe !== undefined && !this.languageChecked) {
      const mode = await probeLanguageMode(this.executable, this.leadingArgs, this.startDeadlineMs);
      if (mode !== undefined && mode !== 'FullLanguage')
        return { ok: false, kind: 'exit', message: languageModeRefusal(mode, this.languageProbe) };
      // An inconclusive probe (no answer) is not a refusal: the shell's own start says more.
      this.languageChecked = true;
    }
    const Shell = pinnedShellClass(this.executable, this.leadingArgs);
    let shell: PowerShell;
    try {
      shell = new Shell({
        executableOptions: { '-NoProfile': true, '-NonInteractive': true },
        throwOnInvocationError: false,
        // PowerShell 7 on Linux/macOS writes keypad-mode escapes (ESC[?1h ESC[?1l) around every
        // command unless TERM is dumb, and colours error text unless NO_COLOR is set (seen with
        // the real pwsh 7.6): neither belongs in output that is parsed or shown as a message.
        spawnOptions: { env: { ...process.env, TERM: 'dumb', NO_COLOR: '1' } },
      });
    } catch (e) {
      return { ok: false, kind: 'exit', message: `could not start ${this.executable}: ${text(e)}` };
    }
    this.started++;
    const live: LiveShell = { shell, pid: undefined, dead: false };
    // Errors on the pipes are reported through the calls; unheard they would crash the process.
    for (const s of [shell.streams.stdin, shell.streams.stdout, shell.streams.stderr])
      s.on('error', () => undefined);
    // An idle shell must not keep this process alive: a CLI scan ends when its work is done, and
    // the shell, its stdin closed, ends with it. A running call keeps the process alive through
    // its deadline timer (invoke), so nothing is cut short.
    for (const s of [shell.streams.stdin, shell.streams.stdout, shell.streams.stderr]) unref(s);
    unref((shell as unknown as { process?: unknown }).process);
    shell.streams.stdout.once('close', () => {
      live.dead = true;
    });
    // The init call also attaches node-powershell's own handlers to its exit promise, which would
    // otherwise reject unhandled if the shell died while idle.
    const init = await this.invoke(
      live,
      toShellCommand(SESSION_INIT_SCRIPT),
      this.startDeadlineMs,
      'allow',
    );
    if (!init.ok)
      return { ...init, message: `starting ${this.executable} failed: ${init.message}` };
    live.pid = pidFromInitOutput(init.stdout);
    this.live = live;
    return live;
  }

  private async invoke(
    live: LiveShell,
    command: string,
    deadlineMs: number,
    stderrMode: 'fail' | 'allow',
  ): Promise<RunResult> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), deadlineMs);
    });
    const call = live.shell.invoke(command).then(
      (record) => ({ record }),
      (error: unknown) => ({ error }),
    );
    const outcome = await Promise.race([call, deadline]);
    clearTimeout(timer);
    // node-powershell keeps every call's output in `history` for the life of the shell.
    live.shell.history.splice(0);

    if (outcome === 'timeout') {
      await this.discard(live, 'SIGKILL');
      return {
        ok: false,
        kind: 'timeout',
        message: `no answer within ${deadlineMs} ms; the shell${live.pid ? ` (pid ${live.pid})` : ''} was killed and will be restarted`,
      };
    }
    if ('error' in outcome) {
      await this.discard(live, 'SIGKILL');
      return { ok: false, kind: 'exit', message: limit(text(outcome.error)) };
    }
    const { record } = outcome;
    if (record.stdout === undefined) {
      // The shell exited with code 0 mid-call (e.g. a script ran `exit`): node-powershell then
      // resolves with an empty record instead of failing.
      await this.discard(live, 'SIGKILL');
      return { ok: false, kind: 'exit', message: 'the shell exited during the call' };
    }
    const stdout = decode(record.stdout);
    const stderr = record.stderr === undefined ? '' : decode(record.stderr).trim();
    if (stderr !== '' && stderrMode === 'fail')
      return { ok: false, kind: 'stderr', message: limit(stderr) };
    return stderr === '' ? { ok: true, stdout } : { ok: true, stdout, stderr };
  }

  private async discard(live: LiveShell, signal: NodeJS.Signals): Promise<void> {
    if (this.live === live) this.live = undefined;
    live.dead = true;
    await this.stop(live, signal);
  }

  private async stop(live: LiveShell, signal: NodeJS.Signals): Promise<void> {
    // node-powershell's dispose() kills only the shell itself; children such as hnsdiag.exe
    // would live on holding HNS locks, so on Windows the whole tree goes first (taskkill needs
    // the parent alive to find its children).
    if (process.platform === 'win32' && live.pid !== undefined && signal === 'SIGKILL')
      await killTree(live.pid);
    const disposed = live.shell.dispose(signal).catch(() => undefined);
    await Promise.race([disposed, delay(KILL_WAIT_MS)]);
  }
}

/** The shell's language mode, from one `-Command` run of its own; undefined when it did not say. */
function probeLanguageMode(
  executable: string,
  leadingArgs: readonly string[],
  deadlineMs: number,
): Promise<LanguageMode | undefined> {
  return new Promise((resolve) => {
    let out = '';
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(
        executable,
        [...leadingArgs, '-NoLogo', '-NoProfile', '-NonInteractive', '-Command', LANGUAGE_PROBE],
        {
          stdio: ['ignore', 'pipe', 'ignore'],
          windowsHide: true,
          env: { ...process.env, TERM: 'dumb', NO_COLOR: '1' },
        },
      );
    } catch {
      resolve(undefined);
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(undefined);
    }, deadlineMs);
    timer.unref();
    child.stdout?.on('data', (b: Buffer) => {
      if (out.length < 4096) out += b.toString('utf8');
    });
    child.on('error', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    child.on('close', () => {
      clearTimeout(timer);
      resolve(languageModeFrom(out));
    });
  });
}

function unref(handle: unknown): void {
  const h = handle as { unref?: unknown } | undefined;
  if (typeof h?.unref === 'function') (h as { unref: () => void }).unref();
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}

function killTree(pid: number): Promise<void> {
  return new Promise((resolve) => {
    const tk = spawn('taskkill', ['/PID', String(pid), '/T', '/F'], {
      stdio: 'ignore',
      windowsHide: true,
    });
    tk.on('error', () => resolve());
    tk.on('exit', () => resolve());
    void delay(KILL_WAIT_MS).then(resolve);
  });
}

function decode(b: Buffer | string): string {
  const s = typeof b === 'string' ? b : b.toString('utf8');
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

function text(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function limit(s: string): string {
  return s.length > MAX_MESSAGE ? `${s.slice(0, MAX_MESSAGE)}…` : s;
}
