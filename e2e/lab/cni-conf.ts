// CNI network configs for lab scenarios. Every working chain is bridge + host-local on a lab-only
// bridge that gets no address (isGateway false), no masquerade and no routes: pods receive IPs
// from the given private subnet and nothing is forwarded anywhere.

export interface BridgeNet {
  name: string;
  /** Interface name ≤ 15 bytes; use lab.bridgeName(n) so teardown can find it. */
  bridge: string;
  /** e.g. 10.88.201.0/24 (lab.subnet(n)). */
  subnet: string;
  /** host-local dataDir; use lab.paths.ipamDir. */
  dataDir: string;
  cniVersion?: string;
}

export function bridgeConflist(n: BridgeNet): string {
  return JSON.stringify(
    {
      cniVersion: n.cniVersion ?? '1.0.0',
      name: n.name,
      plugins: [
        {
          type: 'bridge',
          bridge: n.bridge,
          isGateway: false,
          isDefaultGateway: false,
          ipMasq: false,
          hairpinMode: false,
          ipam: { type: 'host-local', dataDir: n.dataDir, ranges: [[{ subnet: n.subnet }]] },
        },
      ],
    },
    null,
    2,
  );
}

/** kube-flannel's stock conflist: valid, but needs the `flannel` binary the lab's bin dir lacks. */
export function flannelConflist(): string {
  return JSON.stringify(
    {
      name: 'cbr0',
      cniVersion: '0.3.1',
      plugins: [
        { type: 'flannel', delegate: { hairpinMode: true, isDefaultGateway: true } },
        { type: 'portmap', capabilities: { portMappings: true } },
      ],
    },
    null,
    2,
  );
}

/** A file cut off mid-write, as left by an interrupted installer. */
export function truncated(text: string, keep = Math.floor(text.length / 2)): string {
  return text.slice(0, keep);
}
