import { describe, expect, it } from 'vitest';
import { orphanedDebugPods, sweepCommands } from './kubectl-sweep';

const pod = (name: string, phase: string, ann: Record<string, string>, labels = true) => ({
  metadata: {
    name,
    namespace: 'default',
    labels: labels
      ? { 'app.kubernetes.io/name': 'cni-doctor', 'app.kubernetes.io/component': 'node-debug' }
      : { app: 'other' },
    annotations: ann,
  },
  status: { phase },
});
const mine = (pid: string) => ({ 'cni-doctor/client-host': 'here', 'cni-doctor/client-pid': pid });

describe('the label-based sweep of debug pods', () => {
  const self = { host: 'here', alive: (pid: number) => pid === 100 };

  it('deletes this machine’s pods whose creator is gone, and finished ones from anywhere', () => {
    const list = {
      items: [
        pod('cni-doctor-n-live01', 'Running', mine('100')),
        pod('cni-doctor-n-dead01', 'Running', mine('200')),
        pod('cni-doctor-n-other1', 'Running', {
          'cni-doctor/client-host': 'elsewhere',
          'cni-doctor/client-pid': '200',
        }),
        pod('cni-doctor-n-done01', 'Failed', {}),
        pod('cni-doctor-n-nolab1', 'Failed', {}, false),
        pod('unrelated', 'Failed', {}),
      ],
    };
    expect(orphanedDebugPods(list, self)).toEqual([
      { namespace: 'default', name: 'cni-doctor-n-dead01', why: expect.stringContaining('gone') },
      { namespace: 'default', name: 'cni-doctor-n-done01', why: 'finished (Failed)' },
    ]);
  });

  it('reads a hostile answer without crashing', () => {
    for (const junk of [null, 1, 'x', { items: 'x' }, { items: [null, 1, { metadata: 5 }] }])
      expect(orphanedDebugPods(junk, self)).toEqual([]);
    const badPid = pod('cni-doctor-n-bad', 'Running', mine('-1; rm -rf /'));
    expect(orphanedDebugPods({ items: [badPid] }, self)).toEqual([]);
  });

  it('lists by label and deletes by name, without waiting', () => {
    const c = sweepCommands('lab', undefined);
    expect(c.list).toEqual([
      '--context',
      'lab',
      'get',
      'pods',
      '--all-namespaces',
      '-l',
      'app.kubernetes.io/name=cni-doctor,app.kubernetes.io/component=node-debug',
      '-o',
      'json',
    ]);
    expect(c.delete({ namespace: 'ns', name: 'p', why: '' })).toEqual([
      '--context',
      'lab',
      '--namespace',
      'ns',
      'delete',
      'pod',
      'p',
      '--ignore-not-found',
      '--wait=false',
    ]);
  });
});
