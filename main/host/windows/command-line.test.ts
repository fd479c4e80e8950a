import { describe, expect, it } from 'vitest';
import { splitWindowsCommandLine } from './command-line';

describe('splitWindowsCommandLine', () => {
  it('splits a kubelet service command line with a quoted program path', () => {
    expect(
      splitWindowsCommandLine(
        '"C:\\Program Files\\kubernetes\\kubelet.exe" --config=C:\\var\\lib\\kubelet\\config.yaml --container-runtime-endpoint=npipe:////./pipe/containerd-containerd',
      ),
    ).toEqual([
      'C:\\Program Files\\kubernetes\\kubelet.exe',
      '--config=C:\\var\\lib\\kubelet\\config.yaml',
      '--container-runtime-endpoint=npipe:////./pipe/containerd-containerd',
    ]);
  });

  it('keeps backslashes literal except before quotes', () => {
    expect(
      splitWindowsCommandLine(
        'c:\\k\\kubelet.exe "--root-dir=C:\\var\\lib\\kubelet\\\\" a\\\\\\"b "x""y" \\\\server\\share',
      ),
    ).toEqual([
      'c:\\k\\kubelet.exe',
      '--root-dir=C:\\var\\lib\\kubelet\\',
      'a\\"b',
      'x"y',
      '\\\\server\\share',
    ]);
  });

  it('handles tabs, extra spaces, empty quoted arguments and an empty line', () => {
    expect(
      splitWindowsCommandLine('  containerd.exe\t--run-service   ""  --log-level  debug '),
    ).toEqual(['containerd.exe', '--run-service', '', '--log-level', 'debug']);
    expect(splitWindowsCommandLine('')).toEqual([]);
  });

  it('reads a quoted program name with backslashes literally', () => {
    expect(splitWindowsCommandLine('"C:\\k\\" --x')).toEqual(['C:\\k\\', '--x']);
  });
});
