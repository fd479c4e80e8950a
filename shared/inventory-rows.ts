/**
 * Turns a Snapshot into the Inventory's tables: plain string cells, so 50,000 HNS endpoints cost
 * one small array each. The engine builds them once per scan and answers windows of rows
 * (app/shared-server/inventory-pages.ts); the screen never holds the snapshot.
 */
import type { HnsObjectKind, InventoryColumn, InventoryTab } from './api-inventory';
import type { Fact } from './model/fact';
import type { Located, Snapshot } from './model/snapshot';
import { endpointStaleness, liveSandboxIds, type Staleness } from './hns-stale';

export type Column = InventoryColumn;

export interface InventoryTable {
  title: string;
  columns: Column[];
  rows: string[][];
  /** Why the table is empty or partial ("could not determine …"). */
  note?: string;
  /** Column 0 holds the id of an HNS object of this kind. */
  objects?: HnsObjectKind;
}

const at = (l: Located<unknown> | undefined): string =>
  l ? (l.line !== undefined ? `${l.source}:${l.line}` : l.source) : '';
const show = (v: unknown): string =>
  v === undefined || v === null ? '' : Array.isArray(v) ? v.join(', ') : String(v);
const yes = (b: boolean | undefined): string => (b === undefined ? '?' : b ? 'yes' : 'no');

function unknownNote<T>(f: Fact<T>, what: string): string | undefined {
  return f.known ? undefined : `could not determine ${what}: ${f.reason}`;
}

export function cniTables(s: Snapshot): InventoryTable[] {
  const conf: string[][] = [];
  const notes: string[] = [];
  for (const dir of s.confDirs) {
    if (dir.missing) {
      conf.push([dir.path, '', '(folder does not exist)', '', '', '', '']);
      continue;
    }
    if (!dir.entries.known) {
      notes.push(`${dir.path}: ${dir.entries.reason}`);
      continue;
    }
    dir.entries.value.forEach((e, i) => {
      const p = e.parse?.known ? e.parse.value : undefined;
      const parse =
        e.parse === undefined
          ? ''
          : !e.parse.known
            ? `unknown: ${e.parse.reason}`
            : p?.ok
              ? `network "${p.network ?? ''}"`
              : `invalid: ${p?.error ?? ''}`;
      conf.push([
        dir.path,
        String(i + 1),
        e.name,
        e.kind + (e.disabledVariant ? ' (disabled)' : ''),
        yes(e.loadable),
        parse,
        p?.ok ? p.plugins.map((x) => x.type).join(', ') : '',
      ]);
    });
  }
  const bins: string[][] = s.binDirs.map((b) => [
    b.path,
    b.missing ? 'missing' : b.entries.known ? String(b.entries.value.length) : '?',
    b.entries.known ? b.entries.value.join(', ') : b.missing ? '' : b.entries.reason,
  ]);
  return [
    {
      title: 'CNI configuration folders (in load order)',
      columns: [
        { label: 'Folder', width: 'minmax(10rem, 1.4fr)' },
        { label: '#', width: '3rem' },
        { label: 'File', width: 'minmax(10rem, 1.5fr)' },
        { label: 'Kind', width: '7rem' },
        { label: 'Loadable', width: '6rem' },
        { label: 'Parses as', width: 'minmax(10rem, 1.5fr)' },
        { label: 'Plugins', width: 'minmax(8rem, 1.2fr)' },
      ],
      rows: conf,
      ...(notes.length > 0 && { note: `could not list: ${notes.join('; ')}` }),
    },
    {
      title: 'CNI plugin folders',
      columns: [
        { label: 'Folder', width: 'minmax(10rem, 1fr)' },
        { label: 'Files', width: '5rem' },
        { label: 'Plugins', width: 'minmax(12rem, 3fr)' },
      ],
      rows: bins,
    },
  ];
}

const SETTING_COLUMNS: Column[] = [
  { label: 'Component', width: '9rem' },
  { label: 'Setting', width: 'minmax(9rem, 1fr)' },
  { label: 'Value', width: 'minmax(12rem, 2fr)' },
  { label: 'Read from', width: 'minmax(10rem, 1.5fr)' },
];

export function runtimeTables(s: Snapshot): InventoryTable[] {
  const rows: string[][] = [];
  const notes: string[] = [];
  const c = s.containerd;
  if (!c.known) notes.push(unknownNote(c, 'containerd') ?? '');
  else if (c.value) {
    const v = c.value;
    rows.push(['containerd', 'config file', v.configPath, v.discoveredBy]);
    for (const f of v.files)
      rows.push([
        'containerd',
        'config file (merged)',
        f.path,
        f.exists ? (f.file.known ? 'read' : `unreadable: ${f.file.reason}`) : 'missing',
      ]);
    rows.push(['containerd', 'config version', String(v.configVersion), v.configPath]);
    rows.push(['containerd', 'CRI address', v.address.value, at(v.address)]);
    rows.push(['containerd', 'cni conf_dir', v.cni.confDir.value, at(v.cni.confDir)]);
    rows.push(['containerd', 'cni bin_dir', show(v.cni.binDirs.value), at(v.cni.binDirs)]);
    rows.push(['containerd', 'max_conf_num', String(v.cni.maxConfNum.value), at(v.cni.maxConfNum)]);
    for (const d of v.disabledPlugins) rows.push(['containerd', 'disabled plugin', d.value, at(d)]);
    if (v.systemdCgroup)
      rows.push([
        'containerd',
        'SystemdCgroup',
        String(v.systemdCgroup.value),
        at(v.systemdCgroup),
      ]);
    for (const e of v.configErrors)
      rows.push([
        'containerd',
        'config error',
        e.message,
        e.line !== undefined ? `${e.path}:${e.line}` : e.path,
      ]);
    if (v.version) rows.push(['containerd', 'version', v.version, '']);
  } else rows.push(['containerd', '(not found)', '', '']);
  const r = s.crio;
  if (!r.known) notes.push(unknownNote(r, 'CRI-O') ?? '');
  else if (r.value) {
    const v = r.value;
    rows.push(['CRI-O', 'config file', v.configPath, v.discoveredBy]);
    for (const f of v.files)
      rows.push(['CRI-O', 'config file (merged)', f.path, f.exists ? 'read' : 'missing']);
    rows.push(['CRI-O', 'address', v.address.value, at(v.address)]);
    rows.push(['CRI-O', 'network_dir', v.cni.confDir.value, at(v.cni.confDir)]);
    rows.push(['CRI-O', 'plugin_dirs', show(v.cni.binDirs.value), at(v.cni.binDirs)]);
    if (v.cni.defaultNetwork)
      rows.push([
        'CRI-O',
        'cni_default_network',
        v.cni.defaultNetwork.value,
        at(v.cni.defaultNetwork),
      ]);
    if (v.cgroupManager)
      rows.push(['CRI-O', 'cgroup_manager', v.cgroupManager.value, at(v.cgroupManager)]);
  } else rows.push(['CRI-O', '(not found)', '', '']);
  if (s.crictl.known && s.crictl.value) {
    const k = s.crictl.value;
    rows.push(['crictl', 'config file', k.path, k.error ?? '']);
    if (k.runtimeEndpoint)
      rows.push(['crictl', 'runtime-endpoint', k.runtimeEndpoint.value, at(k.runtimeEndpoint)]);
  }
  if (s.services.known)
    for (const sv of s.services.value) rows.push(['service', sv.name, sv.state, '']);
  for (const [k, v] of Object.entries(s.versions)) rows.push(['version', k, v, '']);
  return [
    {
      title: 'Runtime configuration',
      columns: SETTING_COLUMNS,
      rows,
      ...(notes.length > 0 && { note: notes.join('; ') }),
    },
  ];
}

export function endpointTables(s: Snapshot): InventoryTable[] {
  const found = s.endpoints.map((e) => [e.endpoint, e.runtime, e.state]);
  const cri = (s.cri ?? []).map((c) => {
    const cond = (t: string): string => {
      const x = c.status?.conditions.find((k) => k.type === t);
      return x ? (x.status ? 'true' : `false${x.reason ? ` (${x.reason})` : ''}`) : '?';
    };
    return [
      c.endpoint,
      c.api ?? '',
      c.version ? `${c.version.runtimeName} ${c.version.runtimeVersion}` : '',
      cond('RuntimeReady'),
      cond('NetworkReady'),
      c.error
        ? `error ${c.error.code}: ${c.error.message}`
        : (c.status?.info.lastCNILoadStatus ?? ''),
      c.sandboxes ? String(c.sandboxes.length) : '?',
    ];
  });
  return [
    {
      title: 'CRI endpoints (sockets and pipes)',
      columns: [
        { label: 'Endpoint', width: 'minmax(14rem, 2fr)' },
        { label: 'Runtime', width: '9rem' },
        { label: 'State', width: '9rem' },
      ],
      rows: found,
    },
    {
      title: 'CRI answers',
      columns: [
        { label: 'Endpoint', width: 'minmax(12rem, 1.6fr)' },
        { label: 'API', width: '8rem' },
        { label: 'Runtime', width: '10rem' },
        { label: 'RuntimeReady', width: '8rem' },
        { label: 'NetworkReady', width: 'minmax(8rem, 1fr)' },
        { label: 'CNI load status / error', width: 'minmax(12rem, 2fr)' },
        { label: 'Sandboxes', width: '6rem' },
      ],
      rows: cri,
      ...(s.cri === undefined && {
        note: 'could not determine: the runtimes were not asked over CRI (not recorded)',
      }),
    },
  ];
}

export function kubeletTables(s: Snapshot): InventoryTable[] {
  const k = s.kubelet;
  if (!k.known)
    return [
      {
        title: 'kubelet',
        columns: SETTING_COLUMNS,
        rows: [],
        note: unknownNote(k, 'the kubelet') ?? '',
      },
    ];
  if (!k.value)
    return [
      {
        title: 'kubelet',
        columns: SETTING_COLUMNS,
        rows: [],
        note: 'no kubelet found on this node',
      },
    ];
  const v = k.value;
  const rows: string[][] = [
    ['kubelet', 'running', yes(v.running), v.pid !== undefined ? `pid ${v.pid}` : ''],
  ];
  if (v.version) rows.push(['kubelet', 'version', v.version, '']);
  if (v.endpoint) rows.push(['kubelet', 'runtime endpoint', v.endpoint.value, at(v.endpoint)]);
  if (v.cgroupDriver)
    rows.push(['kubelet', 'cgroupDriver', v.cgroupDriver.value, at(v.cgroupDriver)]);
  if (v.configPath)
    rows.push([
      'kubelet',
      'config file',
      v.configPath,
      v.config && !v.config.known ? `unreadable: ${v.config.reason}` : '',
    ]);
  for (const f of v.flags)
    rows.push([
      'kubelet flag',
      `--${f.name}`,
      f.value ?? '',
      f.line !== undefined ? `${f.source}:${f.line}` : f.source,
    ]);
  return [{ title: 'kubelet settings', columns: SETTING_COLUMNS, rows }];
}

export function hnsNetworkTables(s: Snapshot): InventoryTable[] {
  const cols: Column[] = [
    { label: 'ID', width: 'minmax(16rem, 2fr)' },
    { label: 'Name', width: 'minmax(8rem, 1fr)' },
    { label: 'Type', width: '8rem' },
    { label: 'Subnets', width: 'minmax(10rem, 1.5fr)' },
    { label: 'State', width: '7rem' },
  ];
  const hns = s.windows?.hns;
  if (!hns) return [{ title: 'HNS networks', columns: cols, rows: [], note: 'not a Windows node' }];
  if (!hns.known)
    return [
      {
        title: 'HNS networks',
        columns: cols,
        rows: [],
        note: unknownNote(hns, 'HNS networks') ?? '',
      },
    ];
  return [
    {
      title: 'HNS networks',
      columns: cols,
      objects: 'network',
      rows: hns.value.networks.map((n) => [
        n.id,
        n.name,
        n.type,
        n.subnets.map((x) => x.prefix + (x.gateway ? ` via ${x.gateway}` : '')).join(', '),
        n.state ?? '',
      ]),
    },
  ];
}

const staleCell = (v: Staleness): string => (v.stale ? `stale: ${v.why}` : 'no');

export function hnsEndpointTables(s: Snapshot): InventoryTable[] {
  const cols: Column[] = [
    { label: 'ID', width: 'minmax(16rem, 2fr)' },
    { label: 'Name', width: 'minmax(8rem, 1.4fr)' },
    { label: 'IP address', width: '9rem' },
    { label: 'MAC', width: '10rem' },
    { label: 'State', width: '8rem' },
    { label: 'Network', width: 'minmax(7rem, 1fr)' },
    { label: 'Remote', width: '5rem' },
    { label: 'Namespace', width: 'minmax(8rem, 1fr)' },
    { label: 'Stale (hns.endpoint.stale)', width: 'minmax(12rem, 2fr)' },
  ];
  const hns = s.windows?.hns;
  if (!hns)
    return [{ title: 'HNS endpoints', columns: cols, rows: [], note: 'not a Windows node' }];
  if (!hns.known)
    return [
      {
        title: 'HNS endpoints',
        columns: cols,
        rows: [],
        note: unknownNote(hns, 'HNS endpoints') ?? '',
      },
    ];
  // The rule's own verdict beside HNS's State: "Attached" and stale are both true of an endpoint
  // still attached to a namespace whose pod sandbox is gone.
  const live = liveSandboxIds(s.cri);
  return [
    {
      title: 'HNS endpoints',
      columns: cols,
      objects: 'endpoint',
      rows: hns.value.endpoints.map((e) => [
        e.id,
        e.name,
        e.ip ?? '',
        e.mac ?? '',
        e.state ?? '',
        e.networkName ?? e.networkId ?? '',
        e.isRemote ? 'yes' : 'no',
        e.namespaceId ?? '',
        staleCell(endpointStaleness(e, live)),
      ]),
    },
  ];
}

export function pipeTables(s: Snapshot): InventoryTable[] {
  const cols: Column[] = [{ label: 'Named pipe', width: '1fr' }];
  const pipes = s.windows?.pipes;
  if (!pipes)
    return [{ title: 'Named pipes', columns: cols, rows: [], note: 'not a Windows node' }];
  if (!pipes.known)
    return [
      {
        title: 'Named pipes',
        columns: cols,
        rows: [],
        note: unknownNote(pipes, 'named pipes') ?? '',
      },
    ];
  return [
    { title: 'Named pipes', columns: cols, rows: pipes.value.map((p) => [`\\\\.\\pipe\\${p}`]) },
  ];
}

/** Each Inventory tab's tables. */
export const TAB_TABLES: Record<InventoryTab, (s: Snapshot) => InventoryTable[]> = {
  cni: cniTables,
  runtime: runtimeTables,
  endpoints: endpointTables,
  kubelet: kubeletTables,
  'hns-networks': hnsNetworkTables,
  'hns-endpoints': hnsEndpointTables,
  pipes: pipeTables,
};
