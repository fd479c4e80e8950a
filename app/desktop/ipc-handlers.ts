/**
 * The IPC side of the DoctorApi. Kept free of `electron` imports (it receives an ipcMain-like
 * object) so the same checks are unit-tested on plain Node: every handler first checks that the
 * sender is the app's own page, then hands the raw payload to the shared dispatcher, which
 * validates it with the same zod schemas as the HTTP server before the engine sees it.
 */
import { CHANNELS, type Envelope, type ExportResult, type Operation } from '../../shared/api';
import type { ExportedBundle } from '../shared-server/backend';
import type { Dispatcher } from '../shared-server/dispatch';
import { toErrorEnvelope } from '../shared-server/errors';
import { isTrustedSender, type FrameLike } from './sender';

export interface InvokeEventLike {
  senderFrame: FrameLike | null;
}

export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: InvokeEventLike, payload: unknown) => Promise<unknown>,
  ): void;
}

export interface IpcDeps {
  ipcMain: IpcMainLike;
  dispatcher: Dispatcher;
  /** file:// URL of the app's index.html. */
  pageUrl: string;
  /** Shows the save dialog and writes the bundle; returns where, or null when cancelled. */
  saveExport: (bundle: ExportedBundle) => Promise<string | null>;
  log?: (line: string) => void;
}

export function registerIpcHandlers(deps: IpcDeps): void {
  for (const [op, channel] of Object.entries(CHANNELS) as [Operation, string][]) {
    deps.ipcMain.handle(channel, async (event, payload): Promise<Envelope<unknown>> => {
      if (!isTrustedSender(event.senderFrame, deps.pageUrl)) {
        deps.log?.(
          `refused ${channel} from ${event.senderFrame?.url.slice(0, 200) ?? 'an unknown frame'}`,
        );
        return {
          ok: false,
          error: { code: 'forbidden', message: 'this page may not use the engine' },
        };
      }
      const env = await deps.dispatcher(op, payload);
      if (op !== 'exportBundle' || !env.ok) return env;
      try {
        const bundle = env.result as ExportedBundle;
        const savedTo = await deps.saveExport(bundle);
        const result: ExportResult =
          savedTo === null
            ? { fileName: bundle.fileName, bytes: bundle.data.byteLength, cancelled: true }
            : { fileName: bundle.fileName, bytes: bundle.data.byteLength, savedTo };
        return { ok: true, result };
      } catch (e) {
        return toErrorEnvelope(e);
      }
    });
  }
}
