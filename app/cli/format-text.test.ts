import { describe, expect, it } from 'vitest';
import type { Report } from '../../shared/model/report';
import { formatReport, plain } from './format-text';

const base: Report = {
  schema: 'cni-doctor.report/v1',
  node: { os: 'linux', hostname: 'laptop', source: 'live' },
  checks: [
    { rule: 'cri.endpoint.unreachable', status: 'unknown', reason: 'permission denied on x' },
  ],
  findings: [],
};

describe('formatReport: could not look (issue 22, point 1)', () => {
  it('never ends a non-root scan on a plain "No findings" and prints the command to rerun', () => {
    const text = formatReport(
      {
        ...base,
        access: {
          elevated: false,
          needs: 'root',
          denied: [{ rule: 'cri.endpoint.unreachable', reason: 'permission denied on x' }],
          rerun: 'sudo cni-doctor scan',
        },
      },
      plain,
    );
    expect(text).toContain(
      '! Not running as root: 1 check could not look (permission denied). No finding rests on them',
    );
    expect(text).toContain('  To look, run with sudo:\n    sudo cni-doctor scan');
    expect(text).not.toContain('nothing on this node explains');
  });
});
