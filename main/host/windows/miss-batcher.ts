/**
 * Coalesces the paths probes discover during a scan (a conf_dir named in config.toml, an import,
 * a kubelet --config) into ONE follow-up collection call per round: every miss raised before the
 * event loop turns joins the same batch, and a batch waits for the one in flight (the shell is
 * serial anyway). Probes ask in parallel (Promise.all over a conf dir's entries), so a round is
 * one call however many objects it covers.
 */
export type WantKind = 'path' | 'readDir' | 'tail';

export interface PathWant {
  kind: WantKind;
  /** The path as collect.ps1 will be asked for it. */
  path: string;
  /** Identity within a batch (kind + normalised path). */
  key: string;
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class MissBatcher {
  private open: { wants: Map<string, PathWant>; done: Promise<void> } | undefined;
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly fetch: (wants: PathWant[]) => Promise<void>) {}

  /** Resolves when the batch holding `want` has been fetched (successfully or not). */
  request(want: PathWant): Promise<void> {
    if (!this.open) {
      const wants = new Map<string, PathWant>();
      const done = this.last.then(turn).then(() => {
        // From here on, new misses start the next batch.
        if (this.open?.wants === wants) this.open = undefined;
        return this.fetch([...wants.values()]);
      });
      this.open = { wants, done };
      this.last = done.catch(() => undefined);
    }
    this.open.wants.set(want.key, want);
    return this.open.done;
  }
}
