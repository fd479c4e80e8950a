import { describe, expect, it } from 'vitest';
import type { RepairPreview } from '../../../shared/model/repair';
import { compareLoadOrder } from '../../../main/compare/diff';
import { formatPreview } from './repair-text';

const plain = { bold: (x: string) => x, dim: (x: string) => x } as Parameters<
  typeof formatPreview
>[1];

describe('formatPreview', () => {
  it('shows the load order now and after this repair, with where the runtime stops', () => {
    const dir = '/etc/cni/net.d';
    const lo = compareLoadOrder(
      'containerd',
      'containerd',
      {
        confDir: dir,
        entries: [
          { name: '10-containerd-net.conflist', role: 'in-use' },
          {
            name: '10-flannel.conflist',
            role: 'never-read',
            note: 'containerd stops before this file',
          },
        ],
      },
      {
        confDir: dir,
        entries: [
          { name: '10-containerd-net.conflist.disabled', role: 'disabled' },
          { name: '10-flannel.conflist', role: 'in-use' },
        ],
      },
    );
    const preview = {
      repairId: 'r',
      title: 't',
      plan: {} as RepairPreview['plan'],
      description: ['Rename'],
      diffs: [],
      services: [],
      podImpact: 'p',
      needsElevation: true,
      risk: 'low',
      notes: [],
      previewToken: 'tok',
      loadOrder: [lo],
    } satisfies RepairPreview;
    const text = formatPreview(preview, plain, 'cni-doctor fix r --yes');
    expect(text).toContain('Load order of containerd (/etc/cni/net.d)');
    expect(text).toContain(
      'now:               ★ 10-containerd-net.conflist (in use)  ‖ containerd stops here ‖ ○ 10-flannel.conflist (never read)',
    );
    expect(text).toContain(
      'after this repair: ⊘ 10-containerd-net.conflist.disabled (disabled)  ★ 10-flannel.conflist (in use)',
    );
  });
});
