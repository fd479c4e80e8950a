/**
 * `cni-doctor serve [--port N] [--bundle PATH | --root DIR | --target T] [--state-dir DIR]` (docs/cli.md): the UI in a browser. Prints the URL with
 * this start's token on stdout (one line, so scripts and the e2e setup can read it) and runs until
 * Ctrl+C / SIGTERM.
 */
import { isRemoteTarget, parseTarget } from '../../../shared/target';
import { elevatedCommand } from '../invocation';
import { visible } from '../visible';
import { ArgError, ROOT_FLAG, STATE_DIR_FLAG, defineCommand } from '../command';

export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'open the UI in a browser (loopback only; prints the URL with its token)',
  details: 'Runs until Ctrl+C or SIGTERM. Exit codes: 0 stopped; 2 could not start.',
  flags: {
    port: { type: 'string', value: 'N', help: 'listen on 127.0.0.1:N (default 0: any free port)' },
    bundle: { type: 'string', value: 'PATH', help: 'open the UI on this bundle' },
    target: {
      type: 'string',
      value: 'TARGET',
      help: 'open the UI on this node: local, container:ENGINE/NAME, ssh:[USER@]HOST[:PORT] or kubectl:[CONTEXT/]NODE (without --target, --bundle or --root the UI opens on a node picker)',
    },
    // A node disk as the "live node": scans, repairs, history and undo act on DIR (what
    // `scan/fix/undo --root DIR` do), so a repair can be tried in the browser on a copy of a disk.
    ...ROOT_FLAG,
    ...STATE_DIR_FLAG,
  },
  async run({ flags }, io) {
    const portText = flags.port ?? '0';
    const port = Number(portText);
    if (!/^\d+$/.test(portText) || port > 65535)
      throw new ArgError('--port must be a number from 0 to 65535 (0: any free port)');
    const bundle = flags.bundle;
    const root = flags.root;
    const stateDir = flags['state-dir'];
    const target = flags.target;
    if ([bundle, root, target].filter((v) => v !== undefined).length > 1)
      throw new ArgError('--bundle, --root and --target name different nodes: give one');
    // Checked before anything starts, with the words `scan --target` uses.
    const parsed = target !== undefined ? parseTarget(target) : undefined;
    if (parsed && !parsed.ok) throw new ArgError(`--target: ${parsed.error}`);
    if (parsed?.ok && parsed.target.kind !== 'local' && !isRemoteTarget(parsed.target))
      throw new ArgError(
        '--target: serve opens local, container:, ssh: or kubectl: targets (use --bundle PATH or --root DIR for those)',
      );
    const remote = parsed?.ok && isRemoteTarget(parsed.target) ? target : undefined;
    // The server, the backend and the repair engine load when serve runs, not at CLI start-up.
    const [
      { createEngineBackend },
      { createDispatcher },
      { ProgressBus },
      { engineRepairs },
      { startWebServer },
      { locateAssets },
      { openHost },
    ] = await Promise.all([
      import('../../shared-server/engine-backend'),
      import('../../shared-server/dispatch'),
      import('../../shared-server/progress'),
      import('../../shared-server/engine-repairs'),
      import('../../web/server'),
      import('../../web/locate'),
      import('../../../main/engine/open-host'),
    ]);

    const { staticDir, demosDir } = locateAssets();
    if (!staticDir)
      io.err('cni-doctor serve: the UI is not built (run `npm run build`); serving the API only');
    const progress = new ProgressBus();
    const backend = await createEngineBackend({
      door: 'web',
      progress,
      repairs: engineRepairs({
        ...(root !== undefined && { root }),
        ...(stateDir !== undefined && { stateDir }),
      }),
      demosDir,
      ...(root !== undefined && {
        openLiveHost: () => openHost({ root }),
        liveLabel: `node disk ${root}`,
      }),
      ...(bundle !== undefined && { initialBundle: bundle }),
      ...(remote !== undefined && { initialTarget: remote }),
      // --root DIR or --target local: the live node was chosen; the UI opens on it.
      ...((root !== undefined || parsed?.ok === true) &&
        remote === undefined && { liveChosen: true }),
      rerunElevated: elevatedCommand([
        'serve',
        ...Object.entries(flags as Record<string, string | boolean | undefined>).flatMap(
          ([k, v]) => (v === true ? [`--${k}`] : typeof v === 'string' ? [`--${k}`, v] : []),
        ),
      ]),
    });
    const dispatcher = createDispatcher({
      backend,
      onError: (op, code, msg) => io.err(visible(`cni-doctor serve: ${op}: ${code}: ${msg}`)),
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
  },
});
