import { visible } from '../visible';
import { ArgError, CRI_TIMEOUT_FLAG, ROOT_FLAG, criTimeoutMs, defineCommand } from '../command';
import { VERSION } from '../version';
import { TARGET_FLAGS, targetOf, targetOptions } from '../target-flags';
import { builtTailWorker } from '../tail-worker-script';

export const collectCommand = defineCommand({
  name: 'collect',
  summary: 'record this node (or a node disk under --root) into a bundle that scan --bundle reads',
  details: `Secrets are redacted unless --no-redact. Progress goes to stderr. Exit codes: 0 written;
2 could not collect or write, with one line on stderr.`,
  flags: {
    out: {
      type: 'string',
      value: 'PATH',
      help: 'where to write: PATH.tar.gz (or .tgz) for an archive, any other path for a folder',
    },
    ...ROOT_FLAG,
    'no-redact': { type: 'boolean', help: 'keep tokens, keys and passwords in the bundle' },
    ...CRI_TIMEOUT_FLAG,
    ...TARGET_FLAGS,
  },
  async run({ flags }, io) {
    const out = flags.out;
    if (!out)
      throw new ArgError('collect needs --out PATH.tar.gz (or a folder path without .tar.gz)');
    const root = flags.root;
    const criDeadlineMs = criTimeoutMs(flags['cri-timeout']);
    // The engine and the bundle writer load when collect runs, not when the CLI starts.
    const [
      { openHost },
      { RecordingHost },
      { collectSnapshot },
      { writeBundleDir },
      { BundleArchiveWriter },
      { recordReferencedFiles },
      { LinuxHost },
      { TailOffload },
    ] = await Promise.all([
      import('../../../main/engine/open-host'),
      import('../../../main/host/recording-host'),
      import('../../../main/probes/snapshot'),
      import('../../../main/bundle/writer'),
      import('../../../main/bundle/archive-writer'),
      import('../../../main/bundle/referenced-files'),
      import('../../../main/host/linux-host'),
      import('../../../main/bundle/tail/tail-offload'),
    ]);
    // The same host a live scan uses: this Linux machine (or a disk under --root), or on Windows
    // the PowerShell-backed host, so a bundle records exactly what `scan` would read.
    // A --target is reached through its transport; its resources are released afterwards.
    const target = targetOf(flags);
    const opened = target
      ? await (
          await import('../../../main/remote/open-target')
        ).openTarget(target, targetOptions(flags, io, criDeadlineMs))
      : undefined;
    const inner =
      opened?.host ??
      (await openHost({
        ...(root !== undefined && { root }),
        ...(criDeadlineMs !== undefined && { criDeadlineMs }),
        // One command, then exit: nothing waits on the event loop meanwhile.
        blockingIo: true,
      }));
    // An archive is written while the node is read (archive-writer.ts); a folder at the end.
    let archive: Awaited<ReturnType<typeof BundleArchiveWriter.open>> | undefined;
    let offload: InstanceType<typeof TailOffload> | undefined;
    try {
      if (out.endsWith('.tar.gz') || out.endsWith('.tgz'))
        archive = await BundleArchiveWriter.open(out, inner.os);
      let files = 0;
      // A local disk into an archive: log tails are read, redacted and compressed on a worker
      // thread while this one reads the configs (main/bundle/tail/).
      const workerScript =
        archive && !target && inner instanceof LinuxHost ? builtTailWorker() : undefined;
      offload = workerScript ? new TailOffload(workerScript) : undefined;
      const rec = new RecordingHost(inner, {
        redact: !flags['no-redact'],
        collectorVersion: VERSION,
        onProgress: (what) => {
          files++;
          // Progress goes to stderr always (collect runs in scripts too), one line per 25 files.
          if (files % 25 === 1) io.err(visible(`collect: ${files} read, now ${what}`));
        },
        ...(archive && { sink: archive.add.bind(archive) }),
        // A local Linux disk: 2,000 conflists read 64 at a time cost far less memory than all at
        // once, as fast. (Windows and remote hosts batch what is asked together: left alone.)
        ...(!target && inner.os === 'linux' && { maxInFlight: 64 }),
        ...(offload &&
          archive &&
          inner instanceof LinuxHost && {
            tails: {
              offload,
              localPath: (p: string) => inner.localPath(p),
              resolvedUnderRoot: root !== undefined,
              sinkCompressed: archive.addCompressed.bind(archive),
            },
          }),
      });
      const snapshot = await collectSnapshot(rec, {
        matchLogs: false,
        olderLoaders: false,
        onProgress: (step) => io.err(`collect: ${step}`),
      });
      io.err('collect: files the CNI configs point to');
      await recordReferencedFiles(rec, snapshot);
      // A node that hung or flooded us midway: a bundle of what it said until then is not one.
      const failed = opened?.failure();
      if (failed) throw failed;
      const { manifest, files: kept } = rec.result();
      if (archive) await archive.finish(manifest);
      else await writeBundleDir(out, inner.os, manifest, kept);
      const { files: count, bytes } = rec.recorded();
      io.err(
        `collect: wrote ${out} (${count} files, ${(bytes / 1024).toFixed(0)} KiB, ${manifest.redactions?.length ?? 0} redaction(s))`,
      );
      return 0;
    } finally {
      await offload?.close();
      await archive?.abort();
      await opened?.close();
    }
  },
});
