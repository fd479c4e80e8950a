import { describe, expect, it } from 'vitest';
import { classifyDiff } from './diff-lines';

describe('classifyDiff', () => {
  it('types each line of a unified diff', () => {
    const d =
      '--- a/etc/containerd/config.toml\n+++ b/etc/containerd/config.toml\n@@ -1,3 +1,3 @@\n version = 2\n-disabled_plugins = ["cri"]\n+disabled_plugins = []\n';
    expect(classifyDiff(d).map((l) => l.kind)).toEqual([
      'meta',
      'meta',
      'hunk',
      'ctx',
      'del',
      'add',
    ]);
  });
});
