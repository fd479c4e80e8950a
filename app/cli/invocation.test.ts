import { describe, expect, it } from 'vitest';
import { elevatedCommand, selfCommand } from './invocation';

describe('selfCommand', () => {
  it('says npx when npm started it', () => {
    expect(selfCommand('/x/node_modules/.bin/cni-doctor', { npm_command: 'exec' })).toEqual([
      'npx',
      'cni-doctor',
    ]);
  });
  it('says cni-doctor through the global link', () => {
    expect(selfCommand('/usr/local/bin/cni-doctor', {})).toEqual(['cni-doctor']);
  });
  it('says node and the script path when started as node bin/cni-doctor.cjs', () => {
    expect(selfCommand('/repo/bin/cni-doctor.cjs', {}, '/repo')).toEqual([
      'node',
      'bin/cni-doctor.cjs',
    ]);
  });
});

describe('elevatedCommand', () => {
  it('prefixes sudo and quotes each word', () => {
    expect(
      elevatedCommand(['scan', '--target', 'container:podman/my node'], 'linux', ['cni-doctor']),
    ).toBe("sudo cni-doctor scan --target 'container:podman/my node'");
  });
});
