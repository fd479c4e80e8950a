import { describe, expect, it } from 'vitest';
import type { HnsEndpoint } from './model/hns';
import { endpointStaleness, liveSandboxIds } from './hns-stale';

const SID = 'a'.repeat(64);
const ep = (over: Partial<HnsEndpoint>): HnsEndpoint => ({
  id: 'E1',
  name: `${SID}_flannel.4096`,
  isRemote: false,
  sharedContainers: [],
  namespaceId: '5b1f0c3e-0000-0000-0000-000000000000',
  state: 'Attached',
  ...over,
});

describe('endpointStaleness', () => {
  it('an Attached endpoint whose sandbox is gone is stale, and the reason says both', () => {
    const v = endpointStaleness(ep({}), liveSandboxIds([{ sandboxes: [{ id: 'B'.repeat(64) }] }]));
    expect(v).toMatchObject({ stale: true, kind: 'sandbox-gone' });
    expect(v.stale && v.why).toBe(
      'HNS state Attached, attached to namespace 5b1f0c3e whose sandbox aaaaaaaaaaaa no longer exists',
    );
  });

  it('is not stale while its sandbox lives, or when the sandboxes are not known', () => {
    expect(
      endpointStaleness(ep({}), liveSandboxIds([{ sandboxes: [{ id: SID.toUpperCase() }] }])),
    ).toEqual({ stale: false });
    expect(endpointStaleness(ep({}), liveSandboxIds(undefined))).toEqual({ stale: false });
    expect(liveSandboxIds([{ sandboxes: [] }])).toBeUndefined();
  });

  it('not attached, and attached to nothing, are stale; remote and host endpoints never', () => {
    expect(endpointStaleness(ep({ state: 'Created' }), undefined)).toMatchObject({
      kind: 'not-attached',
      why: 'state Created: not attached',
    });
    expect(endpointStaleness(ep({ namespaceId: undefined }), undefined)).toMatchObject({
      kind: 'no-namespace',
    });
    expect(endpointStaleness(ep({ state: 'Created', isRemote: true }), undefined).stale).toBe(
      false,
    );
    expect(endpointStaleness(ep({ state: 'Created', name: 'cbr0_ep' }), undefined).stale).toBe(
      false,
    );
  });
});
