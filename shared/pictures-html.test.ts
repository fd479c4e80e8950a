import { describe, expect, it } from 'vitest';
import { chainSection, laneHtml } from './pictures-html';
import type { WindowsChain } from './model/pictures';

describe('the HTML pictures', () => {
  it('a lane says each state in words, marks where the runtime stops, and escapes names', () => {
    const html = laneHtml(
      {
        confDir: '/etc/cni/net.d',
        entries: [
          { name: '10-containerd-net.conflist', role: 'in-use', network: 'containerd-net' },
          { name: '<b>x.conflist', role: 'never-read', note: 'containerd stops before this file' },
          { name: 'y.conf', role: 'invalid', note: 'containerd stops before this file' },
        ],
      },
      'containerd',
    );
    const items = html.match(/<li[^>]*>.*?<\/li>/g) ?? [];
    expect(items).toHaveLength(3);
    expect(items[0]).toMatch(/st-in-use.*10-containerd-net\.conflist.*in use/);
    expect(items[1]).toMatch(
      /stop-before.*containerd stops here.*&lt;b&gt;x\.conflist.*never read/,
    );
    expect(items[2]).toMatch(/st-invalid.*invalid/);
    expect(html).not.toContain('<b>x');
    expect(html).toContain(
      'containerd uses 10-containerd-net.conflist; &lt;b&gt;x.conflist never read, y.conf invalid.',
    );
  });

  it('the chain marks the first broken link in words', () => {
    const chain: WindowsChain = {
      follows: '10-antrea.conflist',
      brokenAt: 'cnisock',
      links: [
        { id: 'kubelet', label: 'kubelet', state: 'ok', detail: 'runs' },
        {
          id: 'cnisock',
          label: 'CNI pipe',
          name: '\\\\.\\pipe\\cnisock',
          state: 'broken',
          detail: 'absent',
          findingId: 'windows.cnisock.missing',
        },
        { id: 'agent', label: 'agent service', state: 'unknown', detail: '?' },
      ],
    };
    const html = chainSection(chain);
    expect(html).toContain('broken first at <b>CNI pipe</b>');
    const items = html.match(/<li[^>]*>.*?<\/li>/g) ?? [];
    expect(items[0]).toMatch(/works/);
    expect(items[1]).toMatch(
      /first-broken.*broken.*pods fail here.*href="#windows\.cnisock\.missing"/,
    );
    expect(items[2]).toMatch(/could not look/);
    expect(html).not.toMatch(/<script/i);
  });
});
