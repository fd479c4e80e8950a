/**
 * The rule → repair contract: every repair a rule can offer, by kind, with the parameters its
 * plan builder (main/repairs/plans) reads. Rules create offers only through `offer()`, and
 * PLAN_BUILDERS is typed as one builder per key of this map, so a misspelled kind, a missing or
 * wrongly typed parameter, or a kind without a builder fails `npm run typecheck`
 * (offers.typecheck.test.ts proves it).
 */

export interface OfferParams {
  /** Rename one file in the same directory (disable a broken CNI config, re-enable a candidate). */
  'rename-file': { from: string; to: string };
  /** Rename each of these CNI configs to `*.disabled`. */
  'disable-files': { paths: string[] };
  /** Remove `element` from disabled_plugins in `file` (the config or drop-in that carries it). */
  'containerd-enable-cri': { file: string; element: string };
  'containerd-add-bin-dir': { dir: string };
  'containerd-set-conf-dir': { dir: string };
  'containerd-set-systemd-cgroup': { value: boolean };
  'crio-add-plugin-dir': { dir: string };
  'crio-set-network-dir': { dir: string };
  /** The network CRI-O should wait for; '' unsets cni_default_network (first valid config wins). */
  'crio-set-default-network': { network: string };
  'crio-set-cgroup-manager': { value: string };
  'write-crictl-config': { endpoint: string };
  'kubelet-set-endpoint': { endpoint: string };
  /** Flag names without the leading dashes. */
  'kubelet-remove-flags': { flags: string[] };
  'restart-service': { service: string };
  'hns-create-nat-network': { name: string; subnet?: string; gateway?: string };
  /** Exact HNS endpoint IDs, each listed in the preview. */
  'hns-remove-endpoints': { ids: string[] };
  /** Nothing to pass: the plan reads the services from the fresh snapshot. */
  'antrea-restart': Record<string, never>;
}

export type OfferKind = keyof OfferParams;

/** A repair a finding offers; `kind` + `params` let the repair engine rebuild the plan itself. */
export type RepairOffer<K extends OfferKind = OfferKind> = {
  [P in K]: {
    kind: P;
    title: string;
    needsElevation: boolean;
    /** Distinguishes two offers of the same kind on one finding (part of the repair id). */
    key?: string;
    params: OfferParams[P];
  };
}[K];

export interface OfferOptions {
  /** Defaults to true: every repair so far changes root-owned files or services. */
  needsElevation?: boolean;
  key?: string;
}

/** The one way a rule offers a repair: the kind decides which parameters it takes. */
export function offer<K extends OfferKind>(
  kind: K,
  title: string,
  params: OfferParams[K],
  options: OfferOptions = {},
): RepairOffer<K> {
  // The mapped type cannot see that {kind: K, params: OfferParams[K]} is its K member.
  return {
    kind,
    title,
    needsElevation: options.needsElevation ?? true,
    ...(options.key !== undefined && { key: options.key }),
    params,
  } as RepairOffer<K>;
}
