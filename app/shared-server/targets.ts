/**
 * The nodes this session can reach, by server-made id: the renderer names a target by its id
 * only (shared/api.ts), never by the text a transport would use. Ids are stable per target within
 * a session, so an address (#/overview?src=target:t-…) keeps working after the list is refreshed.
 */
import { randomBytes } from 'node:crypto';
import type { TargetEntry, TargetList } from '../../shared/api';
import {
  formatTarget,
  isRemoteTarget,
  parseTarget,
  type RemoteTarget,
  type RemotingTarget,
} from '../../shared/target';
import { ApiError } from './errors';
import type { DiscoverOptions, Discovery } from '../../main/remote/discover';

/** What the UI can open: a node through a transport, or a Windows node through remoting. */
export type OpenableTarget = RemoteTarget | RemotingTarget;

const isRemoting = (t: { kind: string }): t is RemotingTarget =>
  t.kind === 'winrm' || t.kind === 'pssession';

export class TargetRegistry {
  private readonly byTarget = new Map<string, string>();
  private readonly byId = new Map<string, OpenableTarget>();

  constructor(private readonly discover: () => Promise<Discovery>) {}

  static default(o: DiscoverOptions = {}): TargetRegistry {
    return new TargetRegistry(async () =>
      (await import('../../main/remote/discover')).discoverTargets(o),
    );
  }

  async list(): Promise<TargetList> {
    const d = await this.discover();
    const targets: TargetEntry[] = [];
    for (const t of d.targets) {
      const parsed = parseTarget(t.target);
      if (!parsed.ok || !isRemoteTarget(parsed.target)) continue;
      let id = this.byTarget.get(t.target);
      if (!id) {
        id = `t-${randomBytes(8).toString('hex')}`;
        this.byTarget.set(t.target, id);
        this.byId.set(id, parsed.target);
      }
      targets.push({
        targetId: id,
        target: t.target,
        what: t.what,
        source: t.source,
        // container: through the engine here; ssh:/kubectl: with file operations on the node.
        canRepair: true,
      });
    }
    return { targets, notes: d.notes };
  }

  /** A target the user typed: parsed like `--target`; refused with the parser's words. */
  add(text: string): TargetEntry {
    const parsed = parseTarget(text.trim());
    if (!parsed.ok) throw new ApiError('bad-request', parsed.error);
    if (!isRemoteTarget(parsed.target) && !isRemoting(parsed.target))
      throw new ApiError(
        'bad-request',
        'only container:, ssh:, kubectl:, winrm: and pssession: targets are opened here (this machine, bundles and demos have their own buttons)',
      );
    const target = formatTarget(parsed.target);
    let id = this.byTarget.get(target);
    if (!id) {
      id = `t-${randomBytes(8).toString('hex')}`;
      this.byTarget.set(target, id);
      this.byId.set(id, parsed.target);
    }
    return {
      targetId: id,
      target,
      what: 'typed here',
      source: 'typed',
      // Repairs through PowerShell remoting are not in this build (scans are).
      canRepair: !isRemoting(parsed.target),
    };
  }

  get(id: string): OpenableTarget | undefined {
    return this.byId.get(id);
  }
}
