import { describe, expect, it } from 'vitest';
import { logLineLocation } from './log-location';

describe('logLineLocation', () => {
  it('quotes path:line for a file read whole', () => {
    expect(logLineLocation({ path: '/var/log/containerd.log', line: 12 })).toBe(
      '/var/log/containerd.log:12',
    );
  });

  it('says the line counts from the start of the tail when only the tail was read', () => {
    expect(
      logLineLocation({ path: '/var/log/containerd.log', line: 346344, tailBytes: 64 * 1048576 }),
    ).toBe('/var/log/containerd.log, line 346344 of the last 64 MiB');
    expect(logLineLocation({ path: 'k.log', line: 3, tailBytes: 4096 })).toBe(
      'k.log, line 3 of the last 4 KiB',
    );
  });
});
