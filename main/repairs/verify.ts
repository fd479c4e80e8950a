/**
 * Verification: scan again and keep the repair only if the finding is gone, no error appeared
 * that was not an error before, the restarted services are active, the runtime answers CRI
 * (when the rescan asked it), and no touched conf dir was left without a valid config. Runtimes
 * need a moment after a restart or a conf-dir event, so it retries until a deadline.
 */
import type { RepairPlan, Verification } from '../../shared/model/repair';
import type { Report } from '../../shared/model/report';
import type { Snapshot } from '../../shared/model/snapshot';
import { derive } from '../rules/derive';
import { dirnameNode, pathKey } from '../conventions/node-paths';
import type { Rescan } from './environment';
import { rescanDiff } from './rescan-diff';
import type { ServiceManager } from './services/types';

export interface VerifyOptions {
  plan: RepairPlan;
  before: { report: Report; snapshot: Snapshot };
  rescan: () => Promise<Rescan>;
  services: ServiceManager;
  timeoutMs: number;
  intervalMs: number;
}

const RUNTIME_SERVICES: Record<string, 'containerd' | 'crio'> = {
  containerd: 'containerd',
  crio: 'crio',
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function validCount(s: Snapshot, dir: string): number | undefined {
  const d = s.confDirs.find((x) => pathKey(s.node.os, x.path) === pathKey(s.node.os, dir));
  if (!d?.entries.known) return undefined;
  return d.entries.value.filter((f) => f.loadable && f.parse?.known && f.parse.value.ok).length;
}

async function once(o: VerifyOptions, attempt: number): Promise<Verification> {
  const v: Verification = {
    passed: false,
    resolved: false,
    newFindings: [],
    cri: [],
    services: [],
    confDirs: [],
    attempts: attempt,
    notes: [],
  };
  let after: Rescan;
  try {
    after = await o.rescan();
  } catch (e) {
    v.detail = `the rescan failed: ${(e as Error).message}`;
    return v;
  }
  const problems: string[] = [];
  v.rescan = rescanDiff(o.before, after);
  // A finding grouped with others of its kind is still there when its id is among the members.
  v.resolved = !after.report.findings.some(
    (f) => f.id === o.plan.findingId || f.members?.includes(o.plan.findingId),
  );
  const target = o.before.report.findings.find((f) => f.id === o.plan.findingId);
  if (!v.resolved)
    problems.push(
      `the problem is still there after a rescan ("${target?.title ?? o.plan.findingId}")`,
    );
  const wasError = new Set(
    o.before.report.findings.filter((f) => f.severity === 'error').map((f) => f.id),
  );
  const added = after.report.findings.filter((f) => f.severity === 'error' && !wasError.has(f.id));
  v.newFindings = added.map((f) => f.id);
  v.newFindingTitles = added.map((f) => ({ id: f.id, title: f.title }));
  // People read this sentence (CLI, UI, journal): titles, not internal ids.
  if (added.length > 0)
    problems.push(`the rescan found a new error: ${added.map((f) => `"${f.title}"`).join('; ')}`);

  for (const name of o.plan.services) {
    const active = o.services.live ? await o.services.isActive(name).catch(() => false) : true;
    v.services.push({ name, active });
    if (!active) problems.push(`${name} is not active`);
  }

  const snap = after.snapshot;
  const runtimes = o.plan.services
    .map((n) => RUNTIME_SERVICES[n])
    .filter((n): n is 'containerd' | 'crio' => n !== undefined);
  if (runtimes.length > 0 && o.services.live) {
    if (!snap?.cri) v.notes.push('the rescan did not ask the runtime over CRI');
    else {
      for (const rt of derive(snap).runtimes.filter((r) => runtimes.includes(r.name))) {
        const ok = rt.cri !== undefined && rt.cri.error === null;
        const detail =
          rt.cri === undefined
            ? 'not asked'
            : rt.cri.error
              ? `code ${rt.cri.error.code}: ${rt.cri.error.message}`
              : `answers ${rt.cri.api ?? 'CRI'}`;
        v.cri.push({ endpoint: rt.endpoint, ok, detail });
        if (!ok) problems.push(`${rt.label} does not answer CRI at ${rt.endpoint} (${detail})`);
      }
    }
  }

  if (snap) {
    const os = snap.node.os;
    const dirs = new Map<string, string>();
    for (const s of o.plan.steps)
      if (s.kind === 'rename') dirs.set(pathKey(os, dirnameNode(os, s.to)), dirnameNode(os, s.to));
    for (const dir of dirs.values()) {
      const now = validCount(snap, dir);
      const then = validCount(o.before.snapshot, dir);
      if (now === undefined) continue;
      v.confDirs.push({ path: dir, valid: now });
      if (now === 0 && (then ?? 0) > 0) problems.push(`${dir} has no valid CNI config left`);
      // The files are right; does the runtime that reads them agree? (It reloads on the rename.)
      for (const rt of derive(snap).runtimes.filter(
        (r) => r.confDir && pathKey(os, r.confDir.path) === pathKey(os, dir),
      )) {
        const ready = rt.cri?.status?.conditions.find((c) => c.type === 'NetworkReady');
        if (!ready) continue;
        v.cri.push({
          endpoint: rt.endpoint,
          ok: ready.status,
          detail: ready.status ? 'NetworkReady' : `NetworkReady=false: ${ready.message}`,
        });
        if (!ready.status)
          problems.push(
            `${rt.label} still reports NetworkReady=false (${ready.message}); it may not have reloaded its CNI config`,
          );
      }
    }
  }
  v.passed = problems.length === 0;
  if (!v.passed) v.detail = problems.join('; ');
  return v;
}

export async function verifyRepair(o: VerifyOptions): Promise<Verification> {
  const deadline = Date.now() + o.timeoutMs;
  for (let attempt = 1; ; attempt++) {
    const v = await once(o, attempt);
    if (v.passed || Date.now() + o.intervalMs > deadline) return v;
    await sleep(o.intervalMs);
  }
}
