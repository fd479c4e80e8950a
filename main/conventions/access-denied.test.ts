import { describe, expect, it } from 'vitest';
import { accessDeniedReason, isAccessDenied } from './access-denied';

describe('isAccessDenied', () => {
  it.each([
    'No connection established. Last error: connect EACCES /run/containerd/containerd.sock',
    'EPERM: operation not permitted, open /var/log/containerd.log',
    'socat[12] E connect(5, AF=1 "/run/containerd/containerd.sock", 33): Permission denied',
    'open \\\\.\\pipe\\containerd-containerd: Access is denied.',
    'validate service connection: ... dial unix /run/containerd/containerd.sock: connect: permission denied',
  ])('recognises %s', (text) => expect(isAccessDenied(text)).toBe(true));

  it.each([
    'No connection established. Last error: connect ECONNREFUSED /run/containerd/containerd.sock',
    'connect ENOENT /run/containerd/containerd.sock',
    'Deadline exceeded',
    '',
  ])('leaves %s alone', (text) => expect(isAccessDenied(text)).toBe(false));

  it('says which privilege is missing', () => {
    expect(accessDeniedReason('x', 'linux')).toMatch(/not running as root/);
    expect(accessDeniedReason('x', 'windows')).toMatch(/not running as Administrator/);
  });
});
