import { describe, expect, it } from 'vitest';
import { parseSourceKey, sourceKey } from './source-key';
import type { ScanRequest } from './api';

describe('sourceKey', () => {
  it('round-trips every kind of source', () => {
    const sources: ScanRequest[] = [
      { source: 'live' },
      { source: 'bundle', bundleId: 'b-1' },
      { source: 'demo', demoId: 'minikube-conflict' },
    ];
    for (const s of sources) expect(parseSourceKey(sourceKey(s))).toEqual(s);
    expect(sources.map(sourceKey)).toEqual(['live', 'bundle:b-1', 'demo:minikube-conflict']);
  });

  it('refuses what it never writes', () => {
    for (const text of ['', 'LIVE', 'bundle:', 'demo:../x', 'host:a', `bundle:${'a'.repeat(200)}`])
      expect(parseSourceKey(text)).toBeNull();
  });
});
