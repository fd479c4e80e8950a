import { ArgError, defineCommand } from '../command';
import { VERSION } from '../version';

const IMAGE_REF = /^[A-Za-z0-9][A-Za-z0-9._/:@-]{0,254}$/;
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const daemonsetCommand = defineCommand({
  name: 'daemonset',
  summary:
    'print the manifests that run the scan on every node on a schedule, reporting a CNIConfigProblem node condition and Events',
  details: `Writes YAML on stdout for \`kubectl apply -f -\`: a namespace (Pod Security "privileged"), a
service account, a ClusterRole allowing only "patch nodes/status" and "create events", a Linux
privileged DaemonSet and a Windows HostProcess DaemonSet (docs/daemonset.md). The image must hold
node and cni-doctor's CLI. Nothing is sent to a cluster.`,
  flags: {
    print: { type: 'boolean', help: 'print the manifests (the only action)' },
    image: {
      type: 'string',
      value: 'IMAGE',
      help: `image with node and cni-doctor at /opt/cni-doctor (default localhost/cni-doctor:${VERSION})`,
    },
    'windows-image': {
      type: 'string',
      value: 'IMAGE',
      help: 'image for the Windows HostProcess DaemonSet (default: --image)',
    },
    namespace: { type: 'string', value: 'NS', help: 'namespace to create (default cni-doctor)' },
    period: {
      type: 'string',
      value: 'SECONDS',
      help: 'seconds between scans (default 60, 10–86400)',
    },
  },
  async run({ flags }, io) {
    if (!flags.print) throw new ArgError('say --print (the manifests go to stdout)');
    const image = flags.image ?? `localhost/cni-doctor:${VERSION}`;
    for (const [name, v] of [
      ['--image', image],
      ['--windows-image', flags['windows-image']],
    ] as const)
      if (v !== undefined && !IMAGE_REF.test(v))
        throw new ArgError(`${name}: not an image reference`);
    if (flags.namespace !== undefined && !DNS_LABEL.test(flags.namespace))
      throw new ArgError('--namespace: not a namespace name');
    const period = flags.period !== undefined ? Number(flags.period) : undefined;
    if (period !== undefined && !(Number.isInteger(period) && period >= 10 && period <= 86400))
      throw new ArgError('--period must be a whole number of seconds from 10 to 86400');
    const { daemonSetManifests } = await import('../../../main/cluster/daemonset-manifests');
    const { toYaml } = await import('../../../main/cluster/yaml');
    io.out(
      `# cni-doctor ${VERSION}: node reporter (docs/daemonset.md)\n` +
        toYaml(
          daemonSetManifests({
            image,
            ...(flags['windows-image'] !== undefined && { windowsImage: flags['windows-image'] }),
            ...(flags.namespace !== undefined && { namespace: flags.namespace }),
            ...(period !== undefined && { period }),
          }),
        ).trimEnd(),
    );
    return 0;
  },
});
