/** What every Windows HNS/service plan needs first: a running Windows node whose HNS was read. */
import type { HnsModel } from '../../../shared/model/hns';
import type { Snapshot } from '../../../shared/model/snapshot';
import type { PlanHost } from './plan-host';
import { refuse } from './refusal';

export function requireLiveWindows(s: Snapshot, host: PlanHost): void {
  if (s.node.os !== 'windows') refuse('this repair exists only on Windows nodes');
  if (!host.live) refuse('HNS objects and Windows services exist only on the running node');
}

export function requireHns(s: Snapshot): HnsModel {
  const h = s.windows?.hns;
  if (!h) refuse('HNS was not read in this scan');
  if (!h.known) refuse(`HNS could not be read: ${h.reason}`);
  return h.value;
}
