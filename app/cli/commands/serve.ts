/**
 * `cni-doctor serve [--port N] [--bundle PATH]` (cli.md): the UI in a browser. Prints the URL with
 * this start's token on stdout (one line, so scripts and the e2e setup can read it) and runs until
 * Ctrl+C / SIGTERM.
 */
import { ArgError, str, type ParsedArgs } from '../args';
import type { Io } from '../io';
import { createEngineBackend } from '../../shared-server/engine-backend';
import { createDispatcher } from '../../shared-server/dispatch';
import { ProgressBus } from '../../shared-server/progress';
import { engineRepairs } from '../../shared-server/engine-repairs';
import { startWebServer } from '../../web/server';
import { locateAssets } from '../../web/locate';

export const SERVE_FLAGS = { port: 'value', bundle: 'value' } as const;

export async function serveCommand(args: ParsedArgs, io: Io): Promise<number> {
  if (args.positionals.length) throw new ArgError(`unexpected argument "${args.positionals[0]}"`);
  const portText = str(args, 'port') ?? '0';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535)
    throw new ArgError('--port must be a number from 0 to 65535 (0: any free port)');
  const bundle = str(args, 'bundle');

  const { staticDir, demosDir } = locateAssets();
  if (!staticDir)
    io.err('cni-doctor serve: the UI is not built (run `npm run build`); serving the API only');
  const progress = new ProgressBus();
  const backend = await createEngineBackend({
    door: 'web',
    progress,
    repairs: engineRepairs(),
    demosDir,
    ...(bundle !== undefined && { initialBundle: bundle }),
  });
  const dispatcher = createDispatcher({
    backend,
    onError: (op, code, msg) => io.err(`cni-doctor serve: ${op}: ${code}: ${msg}`),
  });
  const server = await startWebServer({
    dispatcher,
    progress,
    port,
    ...(staticDir && { staticDir }),
  });

  io.out(server.url);
  io.err(
    `cni-doctor serve: listening on 127.0.0.1:${server.port} only; open the URL above (it carries this session's token). Ctrl+C stops.`,
  );

  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  await backend.dispose();
  return 0;
}
