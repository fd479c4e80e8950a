/** Windows rules (rules.md "Windows"). */
import type { Rule } from '../types';
import { hnsNetworkMissing } from './network-missing';
import { hnsEndpointStale } from './endpoint-stale';
import { windowsCnisockMissing } from './cnisock-missing';
import { windowsNetnsUnsupported } from './netns-unsupported';
import { windowsContainerdUnsupportedK8s } from './unsupported-k8s';

export const WINDOWS_RULES: readonly Rule[] = [
  hnsNetworkMissing,
  hnsEndpointStale,
  windowsCnisockMissing,
  windowsNetnsUnsupported,
  windowsContainerdUnsupportedK8s,
];
