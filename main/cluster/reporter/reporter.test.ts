import { describe, expect, it } from 'vitest';
import type { Report } from '../../../shared/model/report';
import type { Finding } from '../../../shared/model/finding';
import { conditionFor, reasonFor } from './condition';
import type { Api } from './in-cluster-api';
import { reportOnce } from './reporter';

const finding = (rule: string, severity: Finding['severity'] = 'error'): Finding => ({
  id: `${rule}:x`,
  rule,
  severity,
  title: `title of ${rule}`,
  summary: 'what is wrong',
  evidence: [],
  repairs: [],
});
const report = (findings: Finding[]): Report =>
  ({
    schema: 'cni-doctor.report/v1',
    node: { os: 'linux', source: 'live' },
    checks: [],
    findings,
  }) as Report;

function recordingApi() {
  const calls: { method: string; path: string; body: unknown; type?: string }[] = [];
  const api: Api = {
    call: async (method, path, body, type) => {
      calls.push({ method, path, body, ...(type !== undefined && { type }) });
      return { status: 200, body: '{}' };
    },
  };
  return { api, calls };
}

describe('the node reporter', () => {
  it('names the top error finding, and clears when none is left', () => {
    expect(reasonFor('cni.conf.none')).toBe('CniConfNone');
    expect(conditionFor(report([finding('cni.conf.none'), finding('x.y', 'warning')]))).toEqual({
      status: 'True',
      reason: 'CniConfNone',
      message: 'title of cni.conf.none [cni.conf.none]: what is wrong',
    });
    expect(conditionFor(report([finding('x.y', 'warning')])).status).toBe('False');
  });

  it('patches the condition every round and posts an Event only on a change', async () => {
    const { api, calls } = recordingApi();
    let findings = [finding('cni.conf.none')];
    const times = [
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:01:00.000Z',
      '2026-01-01T00:02:00.000Z',
    ];
    let i = 0;
    const deps = {
      api,
      node: 'lab-node',
      scan: async () => report(findings),
      now: () => new Date(times[i++] as string),
    };
    let s = await reportOnce(deps, {});
    s = await reportOnce(deps, s);
    findings = [];
    await reportOnce(deps, s);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'PATCH /api/v1/nodes/lab-node/status',
      'POST /api/v1/namespaces/default/events',
      'PATCH /api/v1/nodes/lab-node/status',
      'PATCH /api/v1/nodes/lab-node/status',
      'POST /api/v1/namespaces/default/events',
    ]);
    expect(calls[0]?.type).toBe('application/strategic-merge-patch+json');
    const cond = (n: number) =>
      (calls[n]?.body as { status: { conditions: Record<string, string>[] } }).status.conditions[0];
    expect(cond(0)).toMatchObject({
      type: 'CNIConfigProblem',
      status: 'True',
      reason: 'CniConfNone',
    });
    // Unchanged: the transition time stays; cleared: a new one.
    expect(cond(2)?.lastTransitionTime).toBe(times[0]);
    expect(cond(3)).toMatchObject({ status: 'False', lastTransitionTime: times[2] });
    expect(calls[4]?.body).toMatchObject({
      involvedObject: { kind: 'Node', name: 'lab-node' },
      type: 'Normal',
      reason: 'CNIConfigOK',
    });
  });

  it('says a failed scan on the node instead of keeping an old answer', async () => {
    const { api, calls } = recordingApi();
    await reportOnce(
      { api, node: 'n', scan: () => Promise.reject(new Error('no /host')) },
      { last: { status: 'False', reason: 'CNIConfigOK', message: '' }, transition: 't' },
    );
    expect(calls[0]?.body).toMatchObject({
      status: { conditions: [{ status: 'True', reason: 'ScanFailed' }] },
    });
  });
});
