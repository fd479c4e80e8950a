import { main } from './main';

main(process.argv.slice(2)).then(
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
