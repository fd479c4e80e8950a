/**
 * hnsdiag's human formats (docs/knowledge/windows-hns.md#hnsdiag a/b) into the v1-shaped objects `hnsdiag -d` would have
 * given, as far as the text tells. Only for the samples: the tool reads hnsdiag's JSON, never these
 * formats, because they change between Windows builds and break on long names (sample 14).
 */
import type { Json } from './json-lenient';

type Obj = { [k: string]: Json };

export interface HnsdiagLists {
  networks: Obj[];
  endpoints: Obj[];
  namespaces: Obj[];
  policyLists: Obj[];
}

const G = '[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}';
const NETWORK_ROW = new RegExp(`^(.*?)\\s+(${G})\\s*$`);
const ENDPOINT_ROW = new RegExp(`^(.*?)\\s+(${G})\\s+(.*?)\\s*$`);
const NAMESPACE_ROW = new RegExp(`^(${G})\\s*\\|\\s*(.*)$`);
const LB_ROW = new RegExp(`^(${G})\\s*\\|\\s*(.*?)\\s*\\|\\s*(.*)$`);
const GUIDS = new RegExp(G, 'g');

type Section = 'networks' | 'endpoints' | 'namespaces' | 'policyLists';
const HEADINGS: Record<string, Section> = {
  'networks:': 'networks',
  'endpoints:': 'endpoints',
  'namespaces:': 'namespaces',
  'loadbalancers:': 'policyLists',
};

/** Older tabular `hnsdiag list all` (samples 01, 14). Blank lines may sit inside a list. */
export function parseHnsdiagTable(text: string): HnsdiagLists {
  const out: HnsdiagLists = { networks: [], endpoints: [], namespaces: [], policyLists: [] };
  let section: Section | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/^>\s?/, '').trimEnd();
    if (/^(```|##|\s*\[\.\.\.)/.test(line)) {
      section = undefined;
      continue;
    }
    const heading = HEADINGS[line.trim().toLowerCase()];
    if (heading !== undefined) {
      section = heading;
      continue;
    }
    if (section === undefined || line.trim() === '') continue;
    let m: RegExpExecArray | null;
    if (section === 'networks' && (m = NETWORK_ROW.exec(line))) {
      out.networks.push({ Name: (m[1] ?? '').trim(), ID: m[2] ?? '' });
    } else if (section === 'endpoints' && (m = ENDPOINT_ROW.exec(line))) {
      out.endpoints.push({
        Name: (m[1] ?? '').trim(),
        ID: m[2] ?? '',
        VirtualNetworkName: m[3] ?? '',
      });
    } else if (section === 'namespaces' && (m = NAMESPACE_ROW.exec(line))) {
      out.namespaces.push(namespaceOf(m[1] ?? '', m[2] ?? ''));
    } else if (section === 'policyLists' && (m = LB_ROW.exec(line))) {
      out.policyLists.push(loadBalancerOf(m[1] ?? '', m[2] ?? '', m[3] ?? ''));
    }
  }
  return out;
}

/** Newer key/value `hnsdiag list loadbalancers` (sample 13). */
export function parseHnsdiagLoadBalancers(text: string): Obj[] {
  const out: Obj[] = [];
  let id: string | undefined;
  let vips = '';
  const flush = (dips: string): void => {
    if (id !== undefined) out.push(loadBalancerOf(id, vips, dips));
    id = undefined;
    vips = '';
  };
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(Load Balancer|Virtual IPs|Direct IP IDs)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const value = (m[2] ?? '').trim();
    if (m[1] === 'Load Balancer') id = value;
    else if (m[1] === 'Virtual IPs') vips = value;
    else flush(value);
  }
  return out;
}

function namespaceOf(id: string, endpoints: string): Obj {
  const ids = endpoints.match(GUIDS) ?? [];
  return { ID: id, ResourceList: ids.map((e) => ({ Type: 'Endpoint', Data: { Id: e } })) };
}

function loadBalancerOf(id: string, vips: string, dips: string): Obj {
  return {
    ID: id,
    Policies: [{ Type: 'ELB', VIPs: vips.split(/[\s,]+/).filter((v) => v !== '') }],
    References: (dips.match(GUIDS) ?? []).map((e) => `/endpoints/${e}`),
  };
}
