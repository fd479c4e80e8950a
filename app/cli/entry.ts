import { endEarlyAgent } from '../../main/remote/early-agent';
import { main } from './main';

main(process.argv.slice(2))
  // A node agent the launcher started and no command took (a usage error) is ended, not left
  // to be killed with this process (early-agent.ts).
  .finally(endEarlyAgent)
  .then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(
        `cni-doctor: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`,
      );
      process.exitCode = 2;
    },
  );
