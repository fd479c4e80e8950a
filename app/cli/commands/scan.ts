import type { Severity } from '../../../shared/model/finding';
import { SEVERITY_RANK } from '../../../shared/model/finding';
import { openHost } from '../../../main/engine/open-host';
import { scanHost } from '../../../main/engine/scan';
import { BundleHost } from '../../../main/host/bundle-host';
import { ArgError, bool, str, type ParsedArgs } from '../args';
import { ansi, formatReport, plain } from '../format-text';
import type { Io } from '../io';

export const SCAN_FLAGS = {
  bundle: 'value',
  root: 'value',
  json: 'bool',
  'fail-on': 'value',
  'cri-timeout': 'value',
} as const;

export async function scanCommand(args: ParsedArgs, io: Io): Promise<number> {
  const failOn = str(args, 'fail-on') ?? 'error';
  if (!['error', 'warning', 'info', 'never'].includes(failOn))
    throw new ArgError(`--fail-on must be error, warning, info or never (got "${failOn}")`);
  if (args.positionals.length) throw new ArgError(`unexpected argument "${args.positionals[0]}"`);
  const criTimeout = str(args, 'cri-timeout');
  if (criTimeout !== undefined && !(Number(criTimeout) > 0))
    throw new ArgError('--cri-timeout needs a positive number of milliseconds');
  const host = await openHost({
    ...(str(args, 'bundle') !== undefined && { bundle: str(args, 'bundle') as string }),
    ...(str(args, 'root') !== undefined && { root: str(args, 'root') as string }),
    ...(criTimeout !== undefined && { criDeadlineMs: Number(criTimeout) }),
  });
  // A malformed manifest section is dropped (its facts become unknown); say which, on stderr.
  if (host instanceof BundleHost)
    for (const w of host.warnings) io.err(`cni-doctor scan: warning: ${w}`);
  const { report } = await scanHost(host, {
    onProgress: (step) => io.progress(`scanning: ${step}`),
  });
  io.progress('');
  if (bool(args, 'json')) io.out(JSON.stringify(report, null, 2));
  else io.out(formatReport(report, io.isTty ? ansi : plain));
  if (failOn === 'never') return 0;
  const threshold = SEVERITY_RANK[failOn as Severity];
  return report.findings.some((f) => SEVERITY_RANK[f.severity] >= threshold) ? 3 : 0;
}
