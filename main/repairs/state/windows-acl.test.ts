import { describe, expect, it } from 'vitest';
import { aclProblem } from './windows-acl';

const USERS = 'S-1-5-32-545';
const owner = 'owner\tS-1-5-32-544\n';

describe('the state dir ACL check on the numeric access mask (review L6)', () => {
  it('GENERIC_WRITE and GENERIC_ALL for an untrusted SID are refused (they print as numbers)', () => {
    expect(aclProblem(`${owner}${USERS}\t1073741824\tAllow`)).toMatch(
      /S-1-5-32-545 may write it \(access mask 0x40000000\)/,
    );
    expect(aclProblem(`${owner}${USERS}\t268435456\tAllow`)).toMatch(/0x10000000/);
  });

  it('write, append, delete, WRITE_DAC and WRITE_OWNER bits are refused; read and execute pass', () => {
    for (const mask of [0x2, 0x4, 0x10, 0x40, 0x100, 0x10000, 0x40000, 0x80000])
      expect(aclProblem(`${owner}${USERS}\t${mask}\tAllow`), String(mask)).not.toBeNull();
    // ReadAndExecute, Synchronize (1179817) and GENERIC_READ|GENERIC_EXECUTE (-1610612736).
    expect(aclProblem(`${owner}${USERS}\t1179817\tAllow`)).toBeNull();
    expect(aclProblem(`${owner}${USERS}\t-1610612736\tAllow`)).toBeNull();
  });

  it('trusted SIDs may write, deny entries never count, an untrusted owner is refused', () => {
    expect(aclProblem(`${owner}S-1-5-18\t2032127\tAllow\nS-1-3-0\t268435456\tAllow`)).toBeNull();
    expect(aclProblem(`${owner}${USERS}\t2032127\tDeny`)).toBeNull();
    expect(aclProblem(`owner\t${USERS}\n`)).toMatch(/owned by/);
  });
});
