// The leak check must actually see leaks: plant each kind of leftover a lab can leave, check
// findLeaks() names it, then check cleanHost() removes it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepAbandonedLabs } from './abandoned';
import { mustRun, sleep } from './exec';
import { cleanHost, findLeaks } from './host-cleanup';
import { labPaths } from './paths';

describe('lab teardown', () => {
  it('detects and removes a leftover process, mount, bridge and IPAM dir', async () => {
    const id =
      'ffff' +
      Math.floor(Math.random() * 256)
        .toString(16)
        .padStart(2, '0');
    const dir = mkdtempSync(join(tmpdir(), 'cndlab-'));
    const p = labPaths(dir, id, '/usr/lib/cni', 'x');
    mkdirSync(join(p.ipamDir, 'net'), { recursive: true });
    writeFileSync(join(p.ipamDir, 'net', '10.88.201.2'), 'sandbox');
    mkdirSync(join(dir, 'mnt'));
    await mustRun('mount', ['-t', 'tmpfs', 'tmpfs', join(dir, 'mnt')]);
    await mustRun('ip', ['link', 'add', `${p.bridgePrefix}9`, 'type', 'bridge']);
    // A process whose command line names the lab dir, like a shim's -address argument.
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 300000)', dir], {
      stdio: 'ignore',
    });
    await sleep(100);

    let leaks: string[];
    let killed: string[];
    try {
      leaks = await findLeaks(p, []);
    } finally {
      killed = (await cleanHost(p, [], 0)).killed;
    }
    expect(leaks).toEqual(
      expect.arrayContaining([
        `process ${child.pid}: ${process.execPath} -e setTimeout(() => {}, 300000) ${dir}`,
        `mount ${join(dir, 'mnt')}`,
        `network interface ${p.bridgePrefix}9`,
        `lab dir ${dir}`,
        `IPAM dataDir ${p.ipamDir}`,
      ]),
    );

    expect(await findLeaks(p, [])).toEqual([]);
    expect(killed).toEqual([
      `${child.pid}: ${process.execPath} -e setTimeout(() => {}, 300000) ${dir}`,
    ]);
    expect(child.exitCode ?? child.signalCode).toBe('SIGKILL');
  });

  it('sweeps a lab whose test runner died before stop()', async () => {
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => dead.once('exit', resolve));
    const id =
      'eeee' +
      Math.floor(Math.random() * 256)
        .toString(16)
        .padStart(2, '0');
    const dir = mkdtempSync(join(tmpdir(), 'cndlab-'));
    const p = labPaths(dir, id, '/usr/lib/cni', 'x');
    writeFileSync(
      join(dir, 'lab.json'),
      JSON.stringify({
        id,
        name: 'abandoned',
        binDir: p.binDir,
        sandboxImage: 'x',
        ownerPid: dead.pid,
      }),
    );
    mkdirSync(join(dir, 'mnt'));
    await mustRun('mount', ['-t', 'tmpfs', 'tmpfs', join(dir, 'mnt')]);
    await mustRun('ip', ['link', 'add', `${p.bridgePrefix}1`, 'type', 'bridge']);
    try {
      expect(await sweepAbandonedLabs(tmpdir())).toContain(dir);
    } finally {
      await cleanHost(p, [], 0);
    }
    expect(await findLeaks(p, [])).toEqual([]);
  });
});
