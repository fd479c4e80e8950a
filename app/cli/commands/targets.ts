import { JSON_FLAG, defineCommand } from '../command';
import { visible } from '../visible';

export const targetsCommand = defineCommand({
  name: 'targets',
  summary:
    'list the nodes this machine can reach: kind/minikube/k3d node containers, kubeconfig nodes, ssh hosts',
  details: `Node containers are found by their labels in docker, podman and nerdctl; kubeconfig nodes
need a reachable API server; ssh hosts come from ~/.ssh/config (--ssh-config FILE instead).
The target used last (by the UI) is listed first. Pass one to scan/fix with --target.`,
  flags: {
    ...JSON_FLAG,
    'ssh-config': { type: 'string', value: 'FILE', help: 'read ssh hosts from FILE' },
  },
  async run({ flags }, io) {
    const { discoverTargets } = await import('../../../main/remote/discover');
    const d = await discoverTargets({
      ...(flags['ssh-config'] !== undefined && { sshConfig: flags['ssh-config'] }),
    });
    if (flags.json) {
      io.out(JSON.stringify(d, null, 2));
      return 0;
    }
    if (d.targets.length === 0) io.out('No nodes found.');
    const width = Math.max(0, ...d.targets.map((t) => t.target.length)) + 2;
    // Names come from container engines and config files: shown, never interpreted.
    for (const t of d.targets) io.out(visible(`${t.target.padEnd(width)}${t.what}`));
    for (const n of d.notes) io.err(visible(`note: ${n}`));
    return 0;
  },
});
