/**
 * `cni-doctor compare --before NODE --after NODE [--json]` (docs/cli.md): two scans side by side —
 * a bundle collected before a repair and the node now, two bundles, two nodes.
 */
import { visible } from '../visible';
import { ArgError, CRI_TIMEOUT_FLAG, JSON_FLAG, criTimeoutMs, defineCommand } from '../command';
import { ansi, plain } from '../format-text';
import { formatComparison } from '../format-comparison';
import { TARGET_FLAGS, scanTargetOptions } from '../target-flags';
import { formatTarget, parseTarget, type Target } from '../../../shared/target';

// How to reach a target; the targets themselves are --before and --after.
const TRANSPORT_FLAGS = {
  'ssh-config': TARGET_FLAGS['ssh-config'],
  'kube-namespace': TARGET_FLAGS['kube-namespace'],
  'kube-image': TARGET_FLAGS['kube-image'],
  'node-timeout': TARGET_FLAGS['node-timeout'],
  'node-session-timeout': TARGET_FLAGS['node-session-timeout'],
};

export const compareCommand = defineCommand({
  name: 'compare',
  summary: 'two scans side by side: findings added, gone and changed; the load order then and now',
  details: `--before and --after each name a node: a bundle's path (a folder or .tar.gz), or a target
(local, bundle:PATH, root:DIR, container:ENGINE/NAME, ssh:…, kubectl:…).
Exit codes: 0 nothing was added or changed; 3 the newer scan has findings the older did not, or a
finding changed; 2 a scan could not run, with one line on stderr.`,
  flags: {
    before: { type: 'string', value: 'NODE', help: 'the older scan: a bundle path or a target' },
    after: { type: 'string', value: 'NODE', help: 'the newer scan: a bundle path or a target' },
    ...JSON_FLAG,
    ...CRI_TIMEOUT_FLAG,
    ...TRANSPORT_FLAGS,
  },
  async run({ flags }, io) {
    if (flags.before === undefined || flags.after === undefined)
      throw new ArgError('compare needs --before NODE and --after NODE');
    const before = nodeOf('--before', flags.before);
    const after = nodeOf('--after', flags.after);
    const criDeadlineMs = criTimeoutMs(flags['cri-timeout']);
    const [{ scanTarget }, { compareResults }] = await Promise.all([
      import('../../../main/remote/open-target'),
      import('../../../main/compare'),
    ]);
    const scan = async (t: Target, which: string) => {
      const label = formatTarget(t);
      const r = await scanTarget(t, scanTargetOptions(flags, io, criDeadlineMs), {
        onProgress: (step) => io.progress(visible(`scanning ${which} ${label}: ${step}`)),
      });
      const n = r.report.node;
      return {
        scan: {
          label,
          os: n.os,
          ...(n.hostname !== undefined && { hostname: n.hostname }),
          ...(r.report.scannedAt !== undefined && { scannedAt: r.report.scannedAt }),
        },
        report: r.report,
        snapshot: r.snapshot,
      };
    };
    const a = await scan(before, 'before');
    const b = await scan(after, 'after');
    io.progress('');
    const c = compareResults(a, b);
    if (flags.json) io.out(JSON.stringify(c, null, 2));
    else io.out(formatComparison(c, io.isTty ? ansi : plain));
    return c.added.length > 0 || c.changed.length > 0 ? 3 : 0;
  },
});

/** A target (`root:/mnt/x`, `ssh:node1`), or else a bundle's path. */
function nodeOf(flag: string, value: string): Target {
  if (/^[a-z]+:/.test(value) && !/^[A-Za-z]:[\\/]/.test(value)) {
    const r = parseTarget(value);
    if (!r.ok) throw new ArgError(`${flag}: ${r.error}`);
    return r.target;
  }
  return { kind: 'bundle', path: value };
}
