/**
 * One Windows scan: build the collection script, run it once in the session, parse what it
 * prints. The session's failure kinds pass through; output that is not a valid collection
 * document is kind 'parse'.
 */
import { buildCollectScript, collectTemplate } from './build-script';
import type { CollectInput } from './collect-input';
import { parseCollection, type WindowsCollection } from './collect-result';
import type { RunFailure, ScriptRunner } from './powershell-session';

export interface CollectOptions {
  /** Whole-scan deadline; default leaves room for every HNS list and version probe to time out. */
  deadlineMs?: number;
  /** Another collect.ps1 text (tests); default the embedded one. */
  template?: string;
}

export type CollectOutcome =
  { ok: true; collection: WindowsCollection; stderr?: string } | RunFailure;

export function defaultDeadlineMs(input: CollectInput): number {
  return 4 * input.hnsTimeoutMs + input.versionProbes.length * input.execTimeoutMs + 60_000;
}

export async function collectWindows(
  runner: ScriptRunner & { dispose?: () => Promise<void> },
  input: CollectInput,
  opts: CollectOptions = {},
): Promise<CollectOutcome> {
  const script = buildCollectScript(opts.template ?? collectTemplate(), input);
  // The script reports its own errors per section, so stderr is noise here, not failure.
  const r = await runner.run(script, {
    deadlineMs: opts.deadlineMs ?? defaultDeadlineMs(input),
    stderr: 'allow',
  });
  if (!r.ok) return r;
  const parsed = parseCollection(r.stdout);
  if (!parsed.ok) return { ok: false, kind: 'parse', message: parsed.error };
  // A call abandoned inside the script (hung HNS) may still occupy the shell: start afresh.
  if (parsed.collection.timedOut && runner.dispose) await runner.dispose();
  return r.stderr === undefined
    ? { ok: true, collection: parsed.collection }
    : { ok: true, collection: parsed.collection, stderr: r.stderr };
}
