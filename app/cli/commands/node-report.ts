import { hostname } from 'node:os';
import { ArgError, defineCommand } from '../command';

const NODE_NAME = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/;

export const nodeReportCommand = defineCommand({
  name: 'node-report',
  summary:
    'what the DaemonSet runs: scan this node every period and set its CNIConfigProblem condition and Events through the API',
  details: `Runs in a pod of the DaemonSet that \`cni-doctor daemonset --print\` writes: the API server is
reached with the pod's service account (patch nodes/status, create events). On Linux the node's
root is --host-root (the scan chroots into it); on Windows (HostProcess) the scan is local.
Runs until SIGTERM; --once scans and reports once. Exit codes: 0 reported; 2 could not report.`,
  flags: {
    node: { type: 'string', value: 'NODE', help: 'the Node to report on (default $NODE_NAME)' },
    'host-root': {
      type: 'string',
      value: 'DIR',
      help: "the node's / mounted in this pod (Linux; default: scan this machine)",
    },
    period: { type: 'string', value: 'SECONDS', help: 'seconds between scans (default 60)' },
    once: { type: 'boolean', help: 'scan and report once, then exit' },
  },
  async run({ flags }, io) {
    const node = flags.node ?? process.env.NODE_NAME ?? hostname().toLowerCase();
    if (!NODE_NAME.test(node)) throw new ArgError(`--node: "${node}" is not a node name`);
    const period = Number(flags.period ?? '60');
    if (!(Number.isInteger(period) && period >= 10 && period <= 86400))
      throw new ArgError('--period must be a whole number of seconds from 10 to 86400');
    const { inClusterApi } = await import('../../../main/cluster/reporter/in-cluster-api');
    const { reportOnce } = await import('../../../main/cluster/reporter/reporter');
    const { scanForReport } = await import('../../../main/cluster/reporter/scan-for-report');
    const api = inClusterApi();
    const root = flags['host-root'];
    const deps = {
      api,
      node,
      scan: () => scanForReport(node, root),
      log: (l: string) => io.err(l),
    };
    let round = Date.now();
    let state = await reportOnce(deps, {});
    if (flags.once) return 0;
    let stop = false;
    const stopped = new Promise<void>((resolve) => {
      process.once('SIGTERM', () => {
        stop = true;
        resolve();
      });
    });
    while (!stop) {
      // Start to start, not end to start: a change is reported at most one period plus one
      // scan after it is made.
      const wait = Math.max(0, round + period * 1000 - Date.now());
      await Promise.race([new Promise((r) => setTimeout(r, wait)), stopped]);
      if (stop) break;
      round = Date.now();
      try {
        state = await reportOnce(deps, state);
      } catch (e) {
        // The API may be briefly away (its restart, a token rotation): try again next period.
        io.err(`node-report: ${(e as Error).message}`);
      }
    }
    return 0;
  },
});
