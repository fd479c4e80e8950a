import { openHost } from '../../../main/engine/open-host';
import { RecordingHost } from '../../../main/host/recording-host';
import { collectSnapshot } from '../../../main/probes/snapshot';
import { writeBundleArchive, writeBundleDir } from '../../../main/bundle/writer';
import { ArgError, bool, str, type ParsedArgs } from '../args';
import type { Io } from '../io';
import { VERSION } from '../version';

export const COLLECT_FLAGS = {
  out: 'value',
  root: 'value',
  'no-redact': 'bool',
  'cri-timeout': 'value',
} as const;

export async function collectCommand(args: ParsedArgs, io: Io): Promise<number> {
  const out = str(args, 'out');
  if (!out)
    throw new ArgError('collect needs --out PATH.tar.gz (or a folder path without .tar.gz)');
  const root = str(args, 'root');
  const criTimeout = str(args, 'cri-timeout');
  if (criTimeout !== undefined && !(Number(criTimeout) > 0))
    throw new ArgError('--cri-timeout needs a positive number of milliseconds');
  // The same host a live scan uses: this Linux machine (or a disk under --root), or on Windows
  // the PowerShell-backed host, so a bundle records exactly what `scan` would read.
  const inner = await openHost({
    ...(root !== undefined && { root }),
    ...(criTimeout !== undefined && { criDeadlineMs: Number(criTimeout) }),
  });
  let files = 0;
  const rec = new RecordingHost(inner, {
    redact: !bool(args, 'no-redact'),
    collectorVersion: VERSION,
    onProgress: (what) => {
      files++;
      // Progress goes to stderr always (collect runs in scripts too), one line per 25 files.
      if (files % 25 === 1) io.err(`collect: ${files} read, now ${what}`);
    },
  });
  await collectSnapshot(rec, { onProgress: (step) => io.err(`collect: ${step}`) });
  const { manifest, files: recorded } = rec.result();
  if (out.endsWith('.tar.gz') || out.endsWith('.tgz'))
    await writeBundleArchive(out, inner.os, manifest, recorded);
  else await writeBundleDir(out, inner.os, manifest, recorded);
  const bytes = recorded.reduce((n, f) => n + f.data.length, 0);
  io.err(
    `collect: wrote ${out} (${recorded.length} files, ${(bytes / 1024).toFixed(0)} KiB, ${manifest.redactions?.length ?? 0} redaction(s))`,
  );
  return 0;
}
