/**
 * A second cni-doctor for the lock tests: takes the node lock of argv[2] (waiting up to argv[3]
 * ms), prints `locked` or `busy: <reason>`, then holds it until stdin closes or it is killed.
 */
import { localNodeLock } from '../journal/lock';

const [root = '/', wait = '0'] = process.argv.slice(2);
localNodeLock(root, Number(wait)).then(
  (lock) => {
    process.stdout.write('locked\n');
    process.stdin.resume();
    process.stdin.on('end', () => void lock.release().then(() => process.exit(0)));
  },
  (e: Error) => {
    process.stdout.write(`busy: ${e.message}\n`);
    process.exit(75);
  },
);
