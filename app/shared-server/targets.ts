/**
 * The nodes this session can reach. A target's id is its own one-line form
 * (`container:podman/kind-control-plane`), so the address names the node
 * (#/overview?src=target:container:podman/…) and a link still means the same node after a
 * restart. The registry only ever answers for a target it listed or that the user typed (or that
 * the door was started on): an id it does not know is refused, never parsed and run, so a pasted
 * link cannot make this machine reach a host nobody chose in this session.
 */
import { ID_PATTERNS, type TargetEntry, type TargetList } from '../../shared/api';
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
      if (!ID_PATTERNS.targetId.test(formatTarget(parsed.target))) continue;
      const id = this.register(parsed.target);
      targets.push({
        targetId: id,
        target: id,
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
    if (!ID_PATTERNS.targetId.test(formatTarget(parsed.target)))
      throw new ApiError('bad-request', 'this target has characters an address cannot carry');
    const id = this.register(parsed.target);
    return {
      targetId: id,
      target: id,
      what: 'typed here',
      source: 'typed',
      // Repairs through PowerShell remoting are not in this build (scans are).
      canRepair: !isRemoting(parsed.target),
    };
  }

  get(id: string): OpenableTarget | undefined {
    return this.byId.get(id);
  }

  /** Known from now on; its id is its one-line form. */
  private register(target: OpenableTarget): string {
    const id = formatTarget(target);
    if (!this.byId.has(id)) this.byId.set(id, target);
    return id;
  }
}
