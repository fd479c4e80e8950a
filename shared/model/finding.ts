/** Findings and check results: the report's vocabulary (rules.md, cli.md). Browser-safe. */

export type Severity = 'error' | 'warning' | 'info';
export type CheckStatus = 'pass' | 'fail' | 'not-applicable' | 'unknown';
export type RuleArea = 'cni' | 'containerd' | 'crio' | 'cri' | 'kubelet' | 'windows' | 'logs';

export const SEVERITY_RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

export interface CheckResult {
  rule: string;
  status: CheckStatus;
  /** Why the check could not look (unknown) or did not apply (not-applicable). */
  reason?: string;
}

/** One line of a file quoted as evidence. */
export interface EvidenceLine {
  line: number;
  text: string;
  highlight?: boolean;
}

/** How one file of a CNI conf dir fared in the runtime's load order. */
export type ConfEntryRole =
  | 'in-use' // selected by the runtime
  | 'valid-unused' // parses, but the runtime stops before it (max_conf_num / one default network)
  | 'invalid' // loadable extension, does not parse as a CNI config
  | 'skipped' // the runtime skips it (CRI-O: invalid or plugin missing)
  | 'never-read' // sorts after a fatal invalid file (containerd) or after max_conf_num
  | 'disabled' // renamed out of the loadable set (*.disabled, *.mk_disabled, *.cilium_bak)
  | 'ignored'; // not loadable (other extension, directory)

export type Evidence =
  | { kind: 'file'; path: string; lines: EvidenceLine[]; note?: string }
  | {
      kind: 'conf-dir';
      path: string;
      runtime: string;
      entries: {
        name: string;
        role: ConfEntryRole;
        network?: string;
        plugins?: string[];
        note?: string;
      }[];
      note?: string;
    }
  | { kind: 'cri'; endpoint: string; field: string; value: string }
  | {
      kind: 'hns';
      objectType: 'network' | 'endpoint' | 'namespace' | 'policyList';
      id: string;
      name?: string;
      detail: string;
    }
  | {
      kind: 'log';
      path: string;
      line: number;
      text: string;
      signature: string;
      /** As LogMatchFact.tailBytes: `line` counts from the start of the file's last N bytes. */
      tailBytes?: number;
      /** E.g. "before the last change of /etc/cni/net.d/10-calico.conflist (2024-05-02 09:18:40Z)". */
      note?: string;
    }
  | { kind: 'process'; name: string; pid?: number; args: string[] }
  /** A Windows registry value: a service's ImagePath, nssm's AppParameters. */
  | { kind: 'registry'; key: string; value: string; data: string; note?: string }
  | { kind: 'path'; path: string; state: string; note?: string }
  | { kind: 'text'; text: string };

export interface RepairRef {
  /** Stable within one scan; pass to `cni-doctor fix`. */
  id: string;
  title: string;
  needsElevation: boolean;
}

export interface Finding {
  /** Unique within a report (rule id plus a discriminator); stable across rescans of the same node. */
  id: string;
  rule: string;
  severity: Severity;
  title: string;
  summary: string;
  /** The runtime whose behaviour the finding is about, when it matters (rules.md). */
  runtime?: string;
  evidence: Evidence[];
  repairs: RepairRef[];
  /** Ids of other findings that explain this one (e.g. cri.network.not-ready → cni.conf.invalid). */
  relatedFindings?: string[];
  /**
   * Set when this finding stands for several of the same kind (one per file, grouped so 2,000
   * bad configs are one finding): the ids those findings have on their own. Their repair ids
   * stay valid and are listed in the evidence.
   */
  members?: string[];
  /** Guidance when no automatic repair exists. */
  guidance?: string;
  /**
   * Where the facts the rule encodes are written down: a page and heading under docs/knowledge/
   * (relative to the repository root) or an upstream https URL. A test resolves every one.
   */
  kb?: readonly Reference[];
}

/**
 * What a rule does about its finding: `auto` — it offers a repair the engine can preview and apply
 * (when the situation allows; `text` says when); `guidance` — it only says what to change by hand;
 * `none` — another finding carries the repair.
 */
export interface RuleRepair {
  kind: 'auto' | 'guidance' | 'none';
  text: string;
}

const SEVERITY_ORDER: readonly Severity[] = ['error', 'warning', 'info'];

/** Every severity a rule's findings can have, highest first. */
export function ruleSeverities(r: Pick<RuleInfo, 'severity' | 'severityWhen'>): Severity[] {
  return SEVERITY_ORDER.filter((s) => s === r.severity || r.severityWhen?.[s] !== undefined);
}

/** A knowledge page and heading of this repository, or an upstream page. */
export type Reference = `docs/knowledge/${string}.md#${string}` | `https://${string}`;

export interface RuleInfo {
  id: string;
  area: RuleArea;
  /** The severity of its findings; the highest one when `severityWhen` names others. */
  severity: Severity;
  /**
   * A rule whose findings do not always have one severity: each severity it gives, and when
   * (`severity` is among them). `rules`, docs/rules.md and scans read the same declaration, and a
   * test checks that every finding of every fixture has a declared severity (newcomer review,
   * README item 4: `rules` said warning where scans printed info).
   */
  severityWhen?: Partial<Record<Severity, string>>;
  title: string;
  firesWhen: string;
  repair: RuleRepair;
  platforms: readonly ('linux' | 'windows')[];
}
