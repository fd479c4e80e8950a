/**
 * The RepairPort backed by the repair engine (main/repairs). Until that engine is part of the
 * build this returns `unavailableRepairs`, so every door answers "repairs are not available".
 */
import { unavailableRepairs, type RepairPort } from './repair-port';

export async function engineRepairs(): Promise<RepairPort> {
  return unavailableRepairs;
}
