/** restart-service: restart, then wait until the manager reports the service active. */
import type { RestartServiceStep } from '../../../shared/model/repair';
import { noRevert, type StepExecutor } from './types';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export const restartExecutor: StepExecutor<RestartServiceStep> = {
  describe: (s, live) =>
    live
      ? `Restart the ${s.service} service${s.daemonReload ? ' (after systemctl daemon-reload)' : ''}`
      : `Restart ${s.service}: skipped (the node disk is not running; ${s.service} reads the new configuration when the node boots)`,
  touches: () => [],
  precheck: async () => undefined,
  async run(s, ctx) {
    await ctx.services.restart(s.service, { ...(s.daemonReload && { daemonReload: true }) });
    const deadline = Date.now() + ctx.serviceWaitMs;
    for (;;) {
      if (await ctx.services.isActive(s.service)) return {};
      if (Date.now() >= deadline)
        throw new Error(
          `${s.service} is not active ${Math.round(ctx.serviceWaitMs / 1000)} s after its restart`,
        );
      await sleep(250);
    }
  },
  // The rollback restarts services itself, after every file is back.
  revert: async () => noRevert(),
  changedSince: async () => null,
};
