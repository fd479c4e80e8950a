/**
 * The cluster view from three API answers — nodes, pods, FailedCreatePodSandBox events — as a
 * pure function (recorded answers in fixtures/cluster/ test it). A pod is stuck in sandbox
 * creation when it is scheduled, Pending, and none of its containers has started (waiting in
 * ContainerCreating, or no status yet); its latest FailedCreatePodSandBox message is matched
 * against the log signatures of the node's OS.
 */
import {
  CLUSTER_SCHEMA,
  CNI_CONDITION_TYPE,
  type ClusterNodeView,
  type ClusterView,
  type StuckGroupView,
  type StuckPodView,
} from '../../shared/cluster';
import { signaturesFor } from '../logs/catalog';
import type { LogSignature } from '../logs/types';
import { arr, condition, items, meta, obj, str, type Obj } from './api-read';
import { cniForDaemonSet } from './cni-from-pods';

export const SANDBOX_EVENT_REASON = 'FailedCreatePodSandBox';
/** A FailedCreatePodSandBox message kept in the view (the kubelet's are a few hundred bytes). */
const MESSAGE_CAP = 2000;

export interface ApiAnswers {
  nodes: unknown;
  pods: unknown;
  /** Events with reason FailedCreatePodSandBox (or all events: others are ignored). */
  events: unknown;
}

interface LatestEvent {
  message?: string;
  count?: number;
  lastSeen?: string;
}

function eventTime(e: Obj): string {
  return (
    str(e.lastTimestamp, 40) ??
    str(obj(e.series).lastObservedTime, 40) ??
    str(e.eventTime, 40) ??
    str(obj(e.metadata).creationTimestamp, 40) ??
    ''
  );
}

/** The latest FailedCreatePodSandBox event of each pod, by namespace/name. */
function latestSandboxEvents(events: unknown): Map<string, LatestEvent & { at: string }> {
  const out = new Map<string, LatestEvent & { at: string }>();
  for (const e of items(events)) {
    if (e.reason !== SANDBOX_EVENT_REASON) continue;
    const io = obj(e.involvedObject ?? e.regarding);
    if (io.kind !== 'Pod') continue;
    const ns = str(io.namespace, 63);
    const name = str(io.name, 253);
    if (!ns || !name) continue;
    const at = eventTime(e);
    const key = `${ns}/${name}`;
    const prev = out.get(key);
    if (prev && prev.at > at) continue;
    const message = str(e.message ?? e.note, MESSAGE_CAP);
    const count = typeof e.count === 'number' && Number.isFinite(e.count) ? e.count : undefined;
    out.set(key, {
      at,
      ...(message !== undefined && { message }),
      ...(count !== undefined && { count }),
      ...(at !== '' && { lastSeen: at }),
    });
  }
  return out;
}

/** Scheduled, Pending, and no container has started: waiting for its sandbox. */
export function stuckInSandboxCreation(pod: Obj): boolean {
  const status = obj(pod.status);
  if (status.phase !== 'Pending' || !str(obj(pod.spec).nodeName)) return false;
  const statuses = [...arr(status.containerStatuses), ...arr(status.initContainerStatuses)].map(
    obj,
  );
  if (statuses.some((s) => obj(s.state).running !== undefined || s.started === true)) return false;
  if (statuses.some((s) => obj(s.state).terminated !== undefined)) return false;
  return statuses.every((s) => {
    const reason = obj(obj(s.state).waiting).reason;
    return reason === undefined || reason === 'ContainerCreating' || reason === 'PodInitializing';
  });
}

/** The most specific signature a message matches: a non-generic one first. */
export function matchSignature(message: string, os: 'linux' | 'windows'): LogSignature | undefined {
  const hits = signaturesFor(os).filter(
    (s) => message.includes(s.literal) && compiled(s).test(message),
  );
  return hits.find((s) => !s.generic) ?? hits[0];
}

const regexCache = new Map<string, RegExp>();
function compiled(s: LogSignature): RegExp {
  let re = regexCache.get(s.id);
  if (!re) {
    re = new RegExp(s.pattern);
    regexCache.set(s.id, re);
  }
  return re;
}

function groupStuck(pods: StuckPodView[]): StuckGroupView[] {
  const groups = new Map<string, StuckGroupView>();
  for (const p of pods) {
    const key = p.signature?.id ?? (p.message !== undefined ? 'unmatched' : 'no-event');
    const title =
      p.signature?.title ??
      (p.message !== undefined
        ? 'A message no log signature knows'
        : 'No FailedCreatePodSandBox event kept (yet)');
    const g = groups.get(key) ?? { key, title, pods: [] };
    g.pods.push(p);
    groups.set(key, g);
  }
  // Largest group first: the cause most pods share.
  return [...groups.values()].sort(
    (a, b) => b.pods.length - a.pods.length || (a.key < b.key ? -1 : 1),
  );
}

function nodeOs(n: Obj): 'linux' | 'windows' {
  return str(obj(obj(n.status).nodeInfo).operatingSystem) === 'windows' ? 'windows' : 'linux';
}

export function buildClusterView(
  a: ApiAnswers,
  o: { context?: string; now?: Date; notes?: string[] } = {},
): ClusterView {
  const events = latestSandboxEvents(a.events);
  const nodes = new Map<
    string,
    { view: ClusterNodeView; os: 'linux' | 'windows'; pods: StuckPodView[] }
  >();
  for (const n of items(a.nodes)) {
    const { name } = meta(n);
    if (!name || nodes.has(name)) continue;
    const status = obj(n.status);
    const info = obj(status.nodeInfo);
    const os = str(info.operatingSystem, 20);
    const runtime = str(info.containerRuntimeVersion, 100);
    const kubelet = str(info.kubeletVersion, 40);
    const cniCondition = condition(status.conditions, CNI_CONDITION_TYPE);
    nodes.set(name, {
      os: nodeOs(n),
      pods: [],
      view: {
        name,
        ready: condition(status.conditions, 'Ready') ?? {
          status: 'Unknown',
          reason: 'NoReadyCondition',
        },
        ...(os !== undefined && { os }),
        ...(runtime !== undefined && { runtime }),
        ...(kubelet !== undefined && { kubelet }),
        ...(cniCondition !== undefined && { cniCondition }),
        stuck: [],
        stuckCount: 0,
      },
    });
  }
  const elsewhere: StuckPodView[] = [];
  for (const p of items(a.pods)) {
    const { name, namespace } = meta(p);
    if (!name || !namespace) continue;
    const nodeName = str(obj(p.spec).nodeName, 253);
    const node = nodeName !== undefined ? nodes.get(nodeName) : undefined;
    // The CNI agent: a running DaemonSet pod on the node whose DaemonSet we know.
    const owner = arr(obj(p.metadata).ownerReferences)
      .map(obj)
      .find((r) => r.kind === 'DaemonSet');
    const cni = owner ? cniForDaemonSet(str(owner.name, 253) ?? '') : undefined;
    if (node && cni && !node.view.cni)
      node.view.cni = { name: cni, from: `DaemonSet pod ${namespace}/${name}` };
    if (!stuckInSandboxCreation(p)) continue;
    const ev = events.get(`${namespace}/${name}`);
    const sig =
      ev?.message !== undefined ? matchSignature(ev.message, node?.os ?? 'linux') : undefined;
    const view: StuckPodView = {
      namespace,
      name,
      ...(ev?.message !== undefined && { message: ev.message }),
      ...(ev?.count !== undefined && { count: ev.count }),
      ...(ev?.lastSeen !== undefined && { lastSeen: ev.lastSeen }),
      ...(sig && { signature: { id: sig.id, title: sig.title } }),
    };
    if (node) node.pods.push(view);
    else elsewhere.push(view);
  }
  const views = [...nodes.values()].map(({ view, pods }) => ({
    ...view,
    stuck: groupStuck(pods),
    stuckCount: pods.length,
  }));
  views.sort((x, y) => y.stuckCount - x.stuckCount || (x.name < y.name ? -1 : 1));
  return {
    schema: CLUSTER_SCHEMA,
    ...(o.context !== undefined && { context: o.context }),
    fetchedAt: (o.now ?? new Date()).toISOString(),
    nodes: views,
    elsewhere,
    notes: o.notes ?? [],
  };
}
