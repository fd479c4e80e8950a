import { visible } from '../visible';
import type { ScanResult } from '../../../main/engine/scan';
import type { Io } from '../io';
import { SEVERITY_RANK } from '../../../shared/model/finding';
import {
  ArgError,
  CRI_TIMEOUT_FLAG,
  JSON_FLAG,
  ROOT_FLAG,
  criTimeoutMs,
  defineCommand,
} from '../command';
import { ansi, formatReport, plain } from '../format-text';
import { TARGET_FLAGS, targetOf, scanTargetOptions, type TargetFlagValues } from '../target-flags';
import { elevatedCommand } from '../invocation';
import { textWidth } from '../wrap';
import type { Target } from '../../../shared/target';

const FAIL_ON = ['error', 'warning', 'info', 'never'] as const;

export const scanCommand = defineCommand({
  name: 'scan',
  summary: 'diagnose this node (or a recorded bundle, or a node disk under --root)',
  details: `Exit codes: 0 no finding at or above --fail-on; 3 such findings exist; 2 the scan could not
run (bad arguments, unreadable or malformed bundle), with one line on stderr.`,
  flags: {
    bundle: {
      type: 'string',
      value: 'PATH',
      help: 'scan a bundle (a folder or .tar.gz made by collect) instead of this node',
    },
    ...ROOT_FLAG,
    ...JSON_FLAG,
    'fail-on': {
      type: 'string',
      value: 'LEVEL',
      help: 'exit 3 on findings at or above error|warning|info, or never (default error)',
    },
    html: {
      type: 'string',
      value: 'FILE',
      help: 'also write the whole report as one self-contained HTML page (opens offline; for tickets)',
    },
    unredacted: {
      type: 'boolean',
      help: 'quote node text verbatim in every output (NOT redacted: may hold tokens and passwords)',
    },
    ...CRI_TIMEOUT_FLAG,
    ...TARGET_FLAGS,
  },
  async run({ flags }, io) {
    const failOn = flags['fail-on'] ?? 'error';
    if (!isFailOn(failOn))
      throw new ArgError(`--fail-on must be error, warning, info or never (got "${failOn}")`);
    const report = await scanNode(flags, io, 'scan');
    if (flags.html !== undefined) await writeHtml(flags.html, report, flags);
    if (flags.json) io.out(JSON.stringify(report, null, 2));
    else io.out(formatReport(report, io.isTty ? ansi : plain, textWidth(io.columns)));
    if (failOn === 'never') return 0;
    const threshold = SEVERITY_RANK[failOn];
    return report.findings.some((f) => SEVERITY_RANK[f.severity] >= threshold) ? 3 : 0;
  },
});

/**
 * Scans the node the flags name (this machine, --bundle, --root, --target) and fills the "could
 * not look" banner's rerun command. `explain` shares it, so it reads the node as `scan` does.
 */
export async function scanNode(
  flags: ScanNodeFlags,
  io: Io,
  command: 'scan' | 'explain',
  operand?: string,
): Promise<ScanResult['report']> {
  const criDeadlineMs = criTimeoutMs(flags['cri-timeout']);
  const target = targetOf(flags);
  const { report } = target
    ? await (
        await import('../../../main/remote/open-target')
      ).scanTarget(target, scanTargetOptions(flags, io, criDeadlineMs), {
        onProgress: (step) => io.progress(visible(`scanning ${flags.target}: ${step}`)),
        ...(flags.unredacted && { unredacted: true }),
      })
    : await scanHere(flags, io, criDeadlineMs);
  io.progress('');
  if (report.access && flags.bundle === undefined && rerunnable(target))
    report.access.rerun = elevatedCommand([
      ...wordsOf(command, flags),
      ...(operand !== undefined ? [operand] : []),
    ]);
  return report;
}

type ScanNodeFlags = TargetFlagValues & {
  bundle?: string;
  root?: string;
  'cri-timeout'?: string;
  /** Quote node text verbatim (scan --unredacted); explain has no such flag. */
  unredacted?: boolean;
};

async function scanHere(
  flags: { bundle?: string; root?: string; unredacted?: boolean },
  io: Io,
  criDeadlineMs: number | undefined,
): Promise<ScanResult> {
  // The engine loads when a scan runs, not when the CLI starts (--help, --version stay quick).
  const [{ openHost }, { scanHost }, { BundleHost }] = await Promise.all([
    import('../../../main/engine/open-host'),
    import('../../../main/engine/scan'),
    import('../../../main/host/bundle-host'),
  ]);
  const host = await openHost({
    ...(flags.bundle !== undefined && { bundle: flags.bundle }),
    ...(flags.root !== undefined && { root: flags.root }),
    ...(criDeadlineMs !== undefined && { criDeadlineMs }),
    // One command, then exit: nothing waits on the event loop meanwhile.
    blockingIo: true,
  });
  // A malformed manifest section is dropped (its facts become unknown); say which, on stderr.
  if (host instanceof BundleHost)
    for (const w of host.warnings) io.err(visible(`cni-doctor scan: warning: ${w}`));
  return scanHost(host, {
    onProgress: (step) => io.progress(`scanning: ${step}`),
    ...(flags.unredacted && { unredacted: true }),
  });
}

/** The report page, written like a bundle: a new 0600 file, never through a planted link. */
async function writeHtml(
  file: string,
  report: ScanResult['report'],
  flags: { bundle?: string; root?: string; target?: string },
): Promise<void> {
  const [{ renderReportHtml }, { writeOutputFile }, { VERSION }] = await Promise.all([
    import('../../../shared/report-html'),
    import('../../../main/bundle/output-file'),
    import('../version'),
  ]);
  const label =
    flags.target ??
    (flags.bundle
      ? `bundle ${flags.bundle}`
      : flags.root
        ? `node disk ${flags.root}`
        : 'live node');
  await writeOutputFile(file, Buffer.from(renderReportHtml(report, { label, version: VERSION })));
}

/** Elevating this CLI helps here, through a transport that runs as its caller (a node container). */
function rerunnable(target: Target | undefined): boolean {
  return (
    !target || target.kind === 'local' || target.kind === 'root' || target.kind === 'container'
  );
}

/** The command and its flags as given, for the rerun command. */
function wordsOf(command: string, flags: Record<string, string | boolean | undefined>): string[] {
  return [
    command,
    ...Object.entries(flags).flatMap(([k, v]) =>
      v === true ? [`--${k}`] : typeof v === 'string' ? [`--${k}`, v] : [],
    ),
  ];
}

function isFailOn(v: string): v is (typeof FAIL_ON)[number] {
  return (FAIL_ON as readonly string[]).includes(v);
}
