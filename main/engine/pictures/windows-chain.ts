/**
 * The Windows chain a pod's network goes through (docs/knowledge/windows-containerd.md,
 * docs/knowledge/windows-cni-agents.md): kubelet → containerd (its pipe) → the CNI config in use →
 * the CNI plugin → \\.\pipe\cnisock (Antrea) → the agent service → the HNS network → endpoints.
 * Each link is judged from the scan's own facts (the CRI answer, the load order, the bin dir, the
 * pipes, the services, HNS) and from the findings about it; a link that could not be looked at is
 * `unknown`, never `ok`. Pure: snapshot, derived facts and the report's findings in, data out.
 */
import type { Finding } from '../../../shared/model/finding';
import type {
  ChainLink,
  ChainLinkId,
  ChainLinkState,
  WindowsChain,
} from '../../../shared/model/pictures';
import type { CniConfFile, Snapshot } from '../../../shared/model/snapshot';
import { endpointStaleness, liveSandboxIds } from '../../../shared/hns-stale';
import type { Derived, RuntimeView } from '../../rules/derive';
import { missingPlugins, parsed } from '../../rules/derive';
import { clusterCniName, isDefaultConfig } from '../../rules/cni-classify';
import { findNetwork, networkNeed } from '../../rules/windows/needs';

/** The findings that speak about each link; the first one found is the link's "say more". */
const LINK_RULES: Record<ChainLinkId, readonly string[]> = {
  kubelet: ['kubelet.flags.removed', 'windows.containerd.unsupported-k8s'],
  runtime: [
    'containerd.service.stopped',
    'containerd.cri.disabled',
    'containerd.config.invalid',
    'cri.endpoint.missing',
    'cri.endpoint.unreachable',
    'cri.socket.multiple',
  ],
  'cni-config': [
    'cni.conf.none',
    'cni.conf.invalid',
    'cni.conf.shadowed-by-default',
    'cni.dir.mismatch',
    'cni.version.unsupported',
    'cni.network.add-refused',
  ],
  'cni-plugin': ['cni.plugin.missing', 'windows.netns.unsupported'],
  cnisock: ['windows.cnisock.missing'],
  agent: ['windows.cnisock.missing'],
  'hns-network': ['hns.network.missing'],
  endpoints: ['hns.endpoint.stale'],
};

/** The agent service each plugin needs (docs/knowledge/windows-cni-agents.md). */
const AGENTS: Record<string, readonly string[]> = {
  antrea: ['antrea-agent'],
  flannel: ['flanneld'],
  sdnoverlay: ['flanneld'],
  sdnbridge: ['flanneld'],
  'win-overlay': ['flanneld'],
  'win-bridge': ['flanneld'],
  calico: ['CalicoNode', 'CalicoFelix'],
};

const RANK: Record<ChainLinkState, number> = { ok: 0, warning: 1, unknown: 2, broken: 3 };

function worst(a: ChainLinkState, b: ChainLinkState): ChainLinkState {
  return RANK[a] >= RANK[b] ? a : b;
}

interface Judged {
  state: ChainLinkState;
  detail: string;
}

class Links {
  readonly out: ChainLink[] = [];
  constructor(private readonly findings: readonly Finding[]) {}

  /** `own`: the link's findings judge it too (off where they are about another network). */
  add(id: ChainLinkId, label: string, name: string | undefined, fact: Judged, own = true): void {
    const about = own ? this.findings.filter((f) => LINK_RULES[id].includes(f.rule)) : [];
    let { state, detail } = fact;
    for (const f of about) {
      const s: ChainLinkState =
        f.severity === 'error' ? 'broken' : f.severity === 'warning' ? 'warning' : 'ok';
      if (RANK[s] > RANK[state]) detail = `${detail} ${f.title}.`.trim();
      state = worst(state, s);
    }
    // A finding about another link (the agent's finding names the pipe) is still the one to open.
    const say = about.find((f) => f.severity !== 'info');
    this.out.push({
      id,
      label,
      ...(name !== undefined && { name }),
      state,
      detail,
      ...(say && { findingId: say.id }),
    });
  }
}

function kubeletLink(s: Snapshot): Judged & { name?: string } {
  if (!s.kubelet.known) return { state: 'unknown', detail: `kubelet: ${s.kubelet.reason}` };
  const k = s.kubelet.value;
  if (!k) return { state: 'broken', detail: 'No kubelet was found on this node.' };
  const svc = s.services.known
    ? s.services.value.find((x) => x.name.toLowerCase() === 'kubelet')
    : undefined;
  const name = k.version;
  if (!k.running || (svc && svc.state !== 'running'))
    return {
      state: 'broken',
      detail: `The kubelet is not running${svc ? ` (service ${svc.state})` : ''}.`,
      ...(name !== undefined && { name }),
    };
  const ep = k.endpoint?.value;
  return {
    state: 'ok',
    detail: `The kubelet runs${ep ? ` and dials ${ep}` : ''}.`,
    ...(name !== undefined && { name }),
  };
}

function runtimeLink(s: Snapshot, rt: RuntimeView): Judged {
  if (s.cri === undefined)
    return {
      state: 'unknown',
      detail: `${rt.label} was not asked over CRI${s.criUnknown ? `: ${s.criUnknown}` : ''}.`,
    };
  if (!rt.cri) return { state: 'broken', detail: `Nothing answers CRI at ${rt.endpoint}.` };
  if (rt.cri.error)
    return {
      state: 'broken',
      detail: `${rt.endpoint} does not answer CRI: ${rt.cri.error.message}`,
    };
  const ready = rt.cri.status?.conditions.find((c) => c.type === 'RuntimeReady');
  if (ready && !ready.status)
    return { state: 'broken', detail: `${rt.label} says RuntimeReady=false: ${ready.message}` };
  return { state: 'ok', detail: `${rt.label} answers CRI at ${rt.endpoint}.` };
}

/** The config the chain follows: the one in use, or the cluster's when a default shadows it. */
function configLink(rt: RuntimeView): Judged & { follow?: CniConfFile; name?: string } {
  const load = rt.load;
  if (!load) return { state: 'unknown', detail: `${rt.label}'s CNI conf dir could not be listed.` };
  if (load.undecided)
    return {
      state: 'unknown',
      detail: `${load.undecided.name} could not be read, so which config wins cannot be told.`,
    };
  const inUse = load.inUse[0];
  if (!inUse)
    return {
      state: 'broken',
      detail: load.fatal
        ? `${load.fatal.name} is invalid and ${rt.label} stops there: no CNI config loads.`
        : `${rt.label} loads no CNI config from ${rt.confDir?.path ?? 'its conf dir'}.`,
    };
  if (isDefaultConfig(inUse)) {
    const cluster = load.valid.find((f) => !isDefaultConfig(f) && f !== inUse);
    if (cluster)
      return {
        state: 'broken',
        follow: cluster,
        name: cluster.name,
        detail: `${inUse.name} (a default) is in use and ${cluster.name} (${clusterCniName(cluster) ?? 'the cluster CNI'}) is never read: ${inUse.name} is in the way.`,
      };
  }
  return {
    state: 'ok',
    follow: inUse,
    name: inUse.name,
    detail: `${rt.label} uses ${inUse.name}.`,
  };
}

export function windowsChain(
  s: Snapshot,
  derived: Derived,
  findings: readonly Finding[],
): WindowsChain | undefined {
  if (s.node.os !== 'windows' || !s.containerd.known || !s.containerd.value) return undefined;
  const rt = derived.judged.find((r) => r.name === 'containerd');
  if (!rt) return undefined;
  const links = new Links(findings);

  const k = kubeletLink(s);
  links.add('kubelet', 'kubelet', k.name, k);
  links.add(
    'runtime',
    'containerd (pipe)',
    rt.endpoint.replace(/^npipe:\/\/\/\//, '\\\\').replace(/\//g, '\\'),
    runtimeLink(s, rt),
  );

  const conf = configLink(rt);
  links.add('cni-config', 'CNI config in use', conf.name, conf);
  const f = conf.follow;
  const p = f ? parsed(f, rt.profile.libcni) : undefined;
  const main = p?.ok ? p.plugins.find((x) => x.role === 'plugin') : undefined;
  const type = main?.type.toLowerCase();

  // The plugin binary in the runtime's bin dirs.
  if (!f || !main || !type) {
    links.add('cni-plugin', 'CNI plugin', undefined, {
      state: 'unknown',
      detail: 'No CNI config to follow, so no plugin to look for.',
    });
  } else {
    const missing = missingPlugins('windows', f, rt.binDirs, {
      gen: rt.profile.libcni,
      roles: ['plugin'],
    });
    links.add(
      'cni-plugin',
      'CNI plugin',
      `${main.type}.exe`,
      missing === undefined
        ? { state: 'unknown', detail: `The bin dir could not be listed.` }
        : missing.length > 0
          ? {
              state: 'broken',
              detail: `${main.type}.exe is not in ${rt.facts.cni.binDirs.value.join(', ')}.`,
            }
          : { state: 'ok', detail: `${main.type}.exe is in the bin dir.` },
    );
  }

  // Antrea's plugin forwards every call to the agent over \\.\pipe\cnisock.
  const pipes = s.windows?.pipes;
  if (type === 'antrea')
    links.add(
      'cnisock',
      'CNI pipe',
      '\\\\.\\pipe\\cnisock',
      !pipes || !pipes.known
        ? { state: 'unknown', detail: 'Named pipes could not be listed.' }
        : pipes.value.some((x) => x.toLowerCase() === 'cnisock')
          ? { state: 'ok', detail: 'antrea-agent listens on \\\\.\\pipe\\cnisock.' }
          : {
              state: 'broken',
              detail: 'No \\\\.\\pipe\\cnisock: antrea.exe cannot reach the agent.',
            },
    );

  const agents = type ? AGENTS[type] : undefined;
  if (agents) {
    const svc = s.services.known
      ? s.services.value.find((x) => agents.some((a) => a.toLowerCase() === x.name.toLowerCase()))
      : undefined;
    links.add(
      'agent',
      'agent service',
      svc?.name ?? agents[0],
      !s.services.known
        ? { state: 'unknown', detail: `Services could not be listed: ${s.services.reason}` }
        : !svc || svc.state === 'missing'
          ? type === 'antrea'
            ? { state: 'broken', detail: `No ${agents[0]} service is installed.` }
            : {
                state: 'unknown',
                detail: `No ${agents.join(' or ')} service: the agent may run as a pod, which this scan does not see.`,
              }
          : svc.state === 'running'
            ? { state: 'ok', detail: `${svc.name} is running.` }
            : svc.state === 'unknown'
              ? { state: 'unknown', detail: `${svc.name}'s state is not known.` }
              : { state: 'broken', detail: `${svc.name} is ${svc.state}.` },
    );
  }

  // The HNS network the plugin attaches pods to, and the endpoints on it.
  const need = f ? networkNeed(f) : undefined;
  const hns = s.windows?.hns;
  if (!need) {
    links.add('hns-network', 'HNS network', undefined, {
      state: 'unknown',
      detail: f
        ? `Which HNS network ${f.name} needs is not known for this plugin.`
        : 'No CNI config to follow.',
    });
  } else if (!hns || !hns.known) {
    links.add('hns-network', 'HNS network', need.network, {
      state: 'unknown',
      detail: `HNS could not be read${hns && !hns.known ? `: ${hns.reason}` : ''}.`,
    });
  } else {
    const net = findNetwork(hns.value, need);
    links.add(
      'hns-network',
      'HNS network',
      net?.name ?? need.network,
      net
        ? { state: 'ok', detail: `HNS network "${net.name}" (${net.type}) exists.` }
        : {
            state: 'broken',
            detail: `No HNS network "${need.network}"${need.creator === 'agent' ? ': the agent creates it when it starts' : ''}.`,
          },
    );
    if (net) {
      const on = hns.value.endpoints.filter(
        (e) => !e.isRemote && (e.networkId === net.id || e.networkName === net.name),
      );
      const live = liveSandboxIds(s.cri);
      const stale = on.filter((e) => endpointStaleness(e, live).stale).length;
      links.add('endpoints', 'HNS endpoints', `${on.length} local`, {
        state: stale > 0 ? 'warning' : 'ok',
        detail:
          stale > 0
            ? `${stale} of ${on.length} local endpoints on "${net.name}" belong to no running pod.`
            : `${on.length} local endpoint${on.length === 1 ? '' : 's'} on "${net.name}", none stale.`,
      });
    } else
      links.add(
        'endpoints',
        'HNS endpoints',
        undefined,
        { state: 'unknown', detail: 'No network, so no endpoints to look at.' },
        false,
      );
  }

  const brokenAt = links.out.find((l) => l.state === 'broken')?.id;
  return {
    ...(f && { follows: f.name }),
    links: links.out,
    ...(brokenAt && { brokenAt }),
  };
}
