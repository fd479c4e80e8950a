import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../shared/model/finding';
import type { Snapshot } from '../../../shared/model/snapshot';
import type { Derived } from '../../rules/derive';
import { couldNotLookStep } from './could-not-look';

const ctx = {
  snapshot: { node: { os: 'linux', source: 'live' } } as unknown as Snapshot,
  derived: {} as Derived,
};

function finding(rule: string, evidence: Finding['evidence']): Finding {
  return { id: rule, rule, severity: 'error', title: rule, summary: '', evidence, repairs: [] };
}

describe('couldNotLookStep', () => {
  it('drops a finding whose evidence is only a permission error and makes its check unknown', () => {
    const out = couldNotLookStep.run(
      {
        checks: [
          { rule: 'x.rule', status: 'fail' },
          { rule: 'y.rule', status: 'fail' },
        ],
        findings: [
          finding('x.rule', [
            {
              kind: 'cri',
              endpoint: 'unix:///s',
              field: 'error',
              value: 'code 14: connect EACCES /s',
            },
          ]),
          finding('y.rule', [{ kind: 'path', path: '/etc/cni/net.d', state: 'present' }]),
        ],
      },
      ctx,
    );
    expect(out.findings.map((f) => f.rule)).toEqual(['y.rule']);
    expect(out.checks[0]).toEqual({
      rule: 'x.rule',
      status: 'unknown',
      reason: expect.stringMatching(/^permission denied on unix:\/\/\/s: .*not running as root/),
    });
    expect(out.checks[1]?.status).toBe('fail');
  });
});
