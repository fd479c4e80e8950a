import { describe, expect, it } from 'vitest';
import { decodePodSandboxStatus, decodeStatus, nanosToIso } from './decode';

describe('decode', () => {
  it('converts CRI nanosecond timestamps and blanks zero or junk', () => {
    expect(nanosToIso('1764666000123456789')).toBe('2025-12-02T09:00:00.123Z');
    expect(nanosToIso('0')).toBe('');
    expect(nanosToIso('-5')).toBe('');
    expect(nanosToIso(undefined)).toBe('');
  });

  it('reads the pod IP and additional IPs of a sandbox status', () => {
    expect(
      decodePodSandboxStatus({
        status: {
          id: 's1',
          metadata: { name: 'p', namespace: 'ns' },
          state: 'SANDBOX_READY',
          createdAt: '0',
          network: { ip: '10.88.201.2', additionalIps: [{ ip: 'fd00::2' }, { ip: '' }] },
        },
      }),
    ).toEqual({
      id: 's1',
      name: 'p',
      namespace: 'ns',
      state: 'SANDBOX_READY',
      createdAt: '',
      ip: '10.88.201.2',
      additionalIps: ['fd00::2'],
    });
  });

  it('does not let wrongly typed fields through', () => {
    expect(
      decodeStatus({
        status: { conditions: [{ type: 1, status: 'true' }] },
        info: { a: 'x', b: 2 },
      }),
    ).toEqual({
      conditions: [{ type: '1', status: false, reason: '', message: '' }],
      info: { a: 'x' },
    });
  });
});
