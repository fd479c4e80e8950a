// Child-process entry for kubectl-signal.test.ts: prepares a kubectl debug pod through the stand-in
// kubectl named in argv[2], says "ready", and waits to be killed.
import { KubectlTransport } from '../kubectl';

const client = process.argv[2] ?? 'kubectl';
const k = new KubectlTransport(
  { kind: 'kubectl', node: 'lab-node' },
  { client, suffix: 'held01', sweep: false },
);
void k.prepare().then(() => {
  process.stdout.write('ready\n');
  setInterval(() => undefined, 60_000);
});
