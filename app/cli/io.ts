/** Where a command writes: results on stdout, progress and errors on stderr (cli.md). */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** A transient status line; cleared with ''. Only drawn on a TTY. */
  progress(text: string): void;
  isTty: boolean;
  /** The terminal's width when stdout is one: the text reports wrap to it. */
  columns?: number;
}

export function processIo(): Io {
  // `cni-doctor rules | head` closes the pipe early: that is not an error worth a stack trace.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  const tty = process.stderr.isTTY === true;
  let shown = false;
  return {
    out: (t) => process.stdout.write(`${t}\n`),
    err: (t) => process.stderr.write(`${t}\n`),
    progress: (t) => {
      if (!tty) return;
      process.stderr.write(`\r\x1b[2K${t.slice(0, (process.stderr.columns ?? 80) - 1)}`);
      shown = t !== '';
      if (!shown) process.stderr.write('\r');
    },
    isTty: process.stdout.isTTY === true,
    ...(process.stdout.isTTY === true &&
      process.stdout.columns > 0 && { columns: process.stdout.columns }),
  };
}
