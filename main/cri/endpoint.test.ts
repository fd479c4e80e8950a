import { describe, expect, it } from 'vitest';
import { toDialTarget } from './endpoint';

describe('toDialTarget', () => {
  it.each([
    ['unix:///run/containerd/containerd.sock', 'unix:/run/containerd/containerd.sock'],
    ['unix:/run/crio/crio.sock', 'unix:/run/crio/crio.sock'],
    ['/var/run/cri-dockerd.sock', 'unix:/var/run/cri-dockerd.sock'],
    ['  unix:///run/k3s/containerd/containerd.sock  ', 'unix:/run/k3s/containerd/containerd.sock'],
  ])('%s -> %s', (endpoint, target) => {
    expect(toDialTarget(endpoint, 'linux')).toMatchObject({ ok: true, kind: 'unix', target });
  });

  it.each([
    'npipe:////./pipe/containerd-containerd',
    'npipe://./pipe/containerd-containerd',
    '\\\\.\\pipe\\containerd-containerd',
    '//./pipe/containerd-containerd',
  ])('named pipe %s dials through unix: with the \\\\.\\pipe\\ path on Windows', (endpoint) => {
    expect(toDialTarget(endpoint, 'win32')).toEqual({
      ok: true,
      kind: 'npipe',
      target: 'unix:\\\\.\\pipe\\containerd-containerd',
      address: '\\\\.\\pipe\\containerd-containerd',
    });
  });

  it('refuses named pipes off Windows with UNAVAILABLE', () => {
    expect(toDialTarget('npipe:////./pipe/containerd-containerd', 'linux')).toMatchObject({
      ok: false,
      code: 14,
    });
  });

  it('maps tcp:// to a dns target', () => {
    expect(toDialTarget('tcp://127.0.0.1:3735', 'win32')).toMatchObject({
      ok: true,
      kind: 'tcp',
      target: 'dns:127.0.0.1:3735',
    });
  });

  it.each([
    'containerd.sock',
    'unix://run/containerd.sock',
    'npipe:////./nopipe/x',
    'tcp://localhost',
    'http://x',
  ])('rejects %s with INVALID_ARGUMENT', (endpoint) => {
    expect(toDialTarget(endpoint, 'linux')).toMatchObject({ ok: false, code: 3 });
  });
});
