import { describe, expect, it } from 'vitest';
import { nodePathToBundleRel, normalizeNodePath } from './node-paths';

/** What normalizing a Linux path means, part by part (the path as it was always normalized). */
function byParts(p: string): string {
  const stack: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') stack.pop();
    else stack.push(seg);
  }
  return `/${stack.join('/')}`;
}

describe('normalizeNodePath (Linux)', () => {
  it('gives every shape of path the same answer as collapsing it part by part', () => {
    const parts = ['', '.', '..', '...', '.a', 'a.', 'a', 'net.d', '..b', 'c..'];
    const paths = new Set<string>(['', '/', '//', 'a', 'a/b', '/a/b/']);
    for (const x of parts)
      for (const y of parts)
        for (const z of parts) {
          paths.add(`/${x}/${y}/${z}`);
          paths.add(`${x}/${y}/${z}`);
          paths.add(`/${x}/${y}/${z}/`);
          paths.add(`/${x}${y}/${z}`);
        }
    for (const p of paths) expect(normalizeNodePath('linux', p), p).toBe(byParts(p));
  });

  it('names a node file under files/ by its normal path', () => {
    expect(nodePathToBundleRel('linux', '/etc/cni/net.d/10-a.conflist')).toBe(
      'etc/cni/net.d/10-a.conflist',
    );
    expect(nodePathToBundleRel('linux', '/etc//cni/./x/../net.d/')).toBe('etc/cni/net.d');
  });
});
