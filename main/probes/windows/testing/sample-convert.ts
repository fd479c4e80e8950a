/**
 * Turns the real HNS output samples (fixtures/windows/samples/source, each with its source) into
 * the JSON document the collection script produces (main/host/windows/scripts/collect.ps1), so the
 * normaliser and the collection parser are tested on real field names and values. Each sample
 * needs its own recipe: some are Format-List text, some hnsdiag tables, some escaped or wrapped
 * JSON excerpts. What the sample format lost (System.Object[], hidden nested objects, the cut at
 * the end) is listed under `sample`, never invented.
 */
import { parseFormatList } from './format-list';
import { parseHnsdiagLoadBalancers, parseHnsdiagTable } from './hnsdiag-text';
import { parseJsonLenient, type Json } from './json-lenient';
import { joinWrapped, physical, wrapWidth } from './unwrap-lines';

type Obj = { [k: string]: Json };
type Kind = 'networks' | 'endpoints' | 'namespaces' | 'policyLists';

export interface SampleFixture {
  format: 'cni-doctor.windows-collect/v1';
  hns: {
    source: string;
    networks: Obj[];
    endpoints: Obj[];
    namespaces: Obj[];
    policyLists: Obj[];
    errors: Obj;
  };
  sample: {
    file: string;
    origin: string;
    /** How the text was read. */
    recipe: string;
    truncated: boolean;
    lossy: string[];
    notes: string[];
  };
}

interface Converted {
  lists: Partial<Record<Kind, Obj[]>>;
  truncated: boolean;
  lossy: string[];
  notes: string[];
  errors?: Obj;
}

type Recipe = { name: string; source: string; convert: (text: string) => Converted };

const formatList = (kind: Kind, startAfter?: RegExp): Recipe => ({
  name: `Format-List → ${kind}`,
  source: 'HostNetworkingService',
  convert: (text) => {
    const body = startAfter ? sliceAfter(text, startAfter) : text;
    const fl = parseFormatList(body);
    return {
      lists: { [kind]: fl.records.map((r) => r.values as Obj) },
      truncated: fl.truncated,
      lossy: fl.records.flatMap((r, i) => r.lossy.map((l) => `${kind}[${i}].${l}`)),
      notes: [],
    };
  },
});

const RECIPES: Record<string, Recipe> = {
  '01': {
    name: 'hnsdiag table → all',
    source: 'hnsdiag',
    convert: (text) => ({
      lists: parseHnsdiagTable(text),
      truncated: false,
      lossy: ['tabular hnsdiag output names only Name/ID/network (no Type, State, IPs)'],
      notes: [],
    }),
  },
  // The hnsdiag key/value block above the list output describes the same endpoint; the list wins.
  '02': formatList('endpoints', /get-hnsendpoint \|/i),
  '03': formatList('networks'),
  '04': formatList('networks'),
  '05': {
    name: 'escaped, wrapped v1 JSON excerpt → networks',
    source: 'HostNetworkingService',
    convert: (text) => jsonExcerpt(unwrapBlock(text).replace(/\\"/g, '"'), '}],', 'networks'),
  },
  '06': formatList('networks'),
  '07': formatList('networks', /Get-HnsNetwork\s*$/),
  '08': formatList('policyLists'),
  '09': formatList('namespaces'),
  '10': {
    name: 'hnsdiag -d JSON excerpt → namespaces',
    source: 'hnsdiag',
    convert: (text) => {
      const r = parseJsonLenient(text.slice(text.indexOf('{')));
      return {
        lists: { namespaces: isObj(r.value) ? [r.value] : [] },
        truncated: r.truncated,
        lossy: [],
        notes: [],
      };
    },
  },
  '11': formatList('endpoints'),
  '12': {
    name: 'hns.psm1 -Verbose: error envelope + wrapped GET /networks JSON excerpt → networks',
    source: 'hns.psm1',
    convert: (text) => {
      const marker = text.indexOf('a later part of the same issue');
      const later = text.slice(text.indexOf('\n', marker) + 1);
      const got = jsonExcerpt(unwrapBlock(later), '}],', 'networks');
      const envelope = /VERBOSE: Result : (\{.*\})/.exec(text)?.[1];
      const parsedEnvelope = envelope ? (JSON.parse(envelope) as Json) : null;
      return {
        ...got,
        errors: { create: parsedEnvelope },
        notes: [
          'the POST body above the error is a New-HnsNetwork request, not an HNS object, and is left out',
        ],
      };
    },
  },
  '13': {
    name: 'hnsdiag key/value load balancers → policyLists',
    source: 'hnsdiag',
    convert: (text) => ({
      lists: { policyLists: parseHnsdiagLoadBalancers(text) },
      truncated: false,
      lossy: ['hnsdiag list output names only ID, VIPs and endpoint IDs'],
      notes: [],
    }),
  },
  '14': {
    name: 'hnsdiag table (quoted, blank lines, long names) → all',
    source: 'hnsdiag',
    convert: (text) => ({
      lists: parseHnsdiagTable(text),
      truncated: /truncated/.test(text),
      lossy: ['tabular hnsdiag output names only Name/ID/network (no Type, State, IPs)'],
      notes: [],
    }),
  },
  '15': formatList('endpoints'),
};

export function sampleIds(): string[] {
  return Object.keys(RECIPES).sort();
}

export function convertSample(file: string, text: string, origin: string): SampleFixture {
  const id = file.slice(0, 2);
  const recipe = RECIPES[id];
  if (recipe === undefined) throw new Error(`no conversion recipe for sample ${file}`);
  const c = recipe.convert(text);
  return {
    format: 'cni-doctor.windows-collect/v1',
    hns: {
      source: recipe.source,
      networks: c.lists.networks ?? [],
      endpoints: c.lists.endpoints ?? [],
      namespaces: c.lists.namespaces ?? [],
      policyLists: c.lists.policyLists ?? [],
      errors: c.errors ?? {},
    },
    sample: {
      file,
      origin: origin.trim(),
      recipe: recipe.name,
      truncated: c.truncated,
      lossy: c.lossy,
      notes: c.notes,
    },
  };
}

function sliceAfter(text: string, re: RegExp): string {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => re.test(l));
  return at < 0 ? text : lines.slice(at + 1).join('\n');
}

/** Re-join a console-wrapped block (until a "[... truncated" marker). */
function unwrapBlock(text: string): string {
  const lines: string[] = [];
  for (const l of text.split(/\r?\n/)) {
    if (/^\s*\[\.\.\..*truncated/.test(l)) break;
    if (l !== '') lines.push(l);
  }
  const phys = lines.map((l) => physical(l, false));
  return joinWrapped(phys, wrapWidth([phys]));
}

/**
 * An excerpt that starts inside the first object's Extensions list: skip to the first `afterFirst`
 * (the end of that list), then read the rest as the remaining members of an array of objects.
 */
function jsonExcerpt(text: string, afterFirst: string, kind: Kind): Converted {
  const at = text.indexOf(afterFirst);
  const r = parseJsonLenient(`[{${text.slice(at + afterFirst.length)}`);
  const list = Array.isArray(r.value) ? r.value.filter(isObj) : [];
  return {
    lists: { [kind]: list },
    truncated: r.truncated,
    lossy: [`${kind}[0] starts mid-object: the members before "${afterFirst}" are missing`],
    notes: [],
  };
}

function isObj(v: Json | undefined): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
