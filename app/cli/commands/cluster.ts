import { JSON_FLAG, ArgError, defineCommand } from '../command';
import { ansi, plain } from '../format-text';
import { formatCluster } from '../format-cluster';
import { TARGET_FLAGS, targetOptions } from '../target-flags';
import { visible } from '../visible';

const { 'kube-namespace': kubeNamespace, 'kube-image': kubeImage } = TARGET_FLAGS;

export const clusterCommand = defineCommand({
  name: 'cluster',
  summary:
    'the cluster through kubectl: every node, its pods stuck in sandbox creation grouped by cause; --scan ties them to node findings',
  details: `Needs kubectl and a reachable API server (everything else works without one). Read-only
on the cluster; --scan creates one short-lived, labelled debug pod per scanned node and deletes it.
Exit codes: 0 shown; 2 no API server answered, or bad arguments.`,
  flags: {
    context: {
      type: 'string',
      value: 'CONTEXT',
      help: 'kubeconfig context (default: the current one)',
    },
    scan: {
      type: 'boolean',
      help: 'scan, through kubectl, each node with stuck pods, NotReady or CNIConfigProblem, and tie each stuck pod to the finding that explains it',
    },
    node: { type: 'string', value: 'NODE', help: 'with --scan: scan only this node (any state)' },
    record: {
      type: 'string',
      value: 'DIR',
      help: "also write the API server's answers (nodes.json, pods.json, events.json) into DIR",
    },
    ...JSON_FLAG,
    'kube-namespace': kubeNamespace,
    'kube-image': kubeImage,
  },
  async run({ flags }, io) {
    if (flags.node !== undefined && !flags.scan) throw new ArgError('--node needs --scan');
    const { fetchApiAnswers } = await import('../../../main/cluster/fetch');
    const { buildClusterView } = await import('../../../main/cluster/view');
    io.progress('asking the API server for nodes, pods and events');
    const fetched = await fetchApiAnswers({
      ...(flags.context !== undefined && { context: flags.context }),
    });
    if (flags.record !== undefined) await record(flags.record, fetched.answers);
    let view = buildClusterView(fetched.answers, {
      ...(flags.context !== undefined && { context: flags.context }),
      notes: fetched.notes,
    });
    if (flags.scan) {
      const { scanClusterNode, nodesWorthScanning } =
        await import('../../../main/cluster/scan-node');
      const chosen =
        flags.node !== undefined
          ? view.nodes.filter((n) => n.name === flags.node)
          : nodesWorthScanning(view);
      if (flags.node !== undefined && chosen.length === 0)
        throw new ArgError(`--node: the API server lists no node "${flags.node}"`);
      const opts = targetOptions(flags, io).kubectl;
      const scanned = new Map<string, (typeof view.nodes)[number]>();
      for (const n of chosen) {
        scanned.set(
          n.name,
          await scanClusterNode(n, {
            ...(flags.context !== undefined && { context: flags.context }),
            ...(opts !== undefined && { kubectl: { ...opts, onPodSpec: () => undefined } }),
            onProgress: (step) => io.progress(visible(`scanning ${n.name}: ${step}`)),
          }),
        );
      }
      view = { ...view, nodes: view.nodes.map((n) => scanned.get(n.name) ?? n) };
    }
    io.progress('');
    io.out(
      flags.json ? JSON.stringify(view, null, 2) : formatCluster(view, io.isTty ? ansi : plain),
    );
    return 0;
  },
});

async function record(dir: string, answers: Record<string, unknown>): Promise<void> {
  const { mkdir, writeFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  await mkdir(dir, { recursive: true });
  for (const [k, v] of Object.entries(answers))
    await writeFile(join(dir, `${k}.json`), JSON.stringify(v, null, 2) + '\n');
}
